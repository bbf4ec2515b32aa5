/** soev project and suite files (docs/soev.md) read unchanged: the public names (re-exported by lib/core/index.ts). */
export { looksLikeSoevSuite, SOEV_CASE_KEYS, type SoevSuiteContext } from './suite';
export {
  isSoevProjectText,
  parseSoevProject,
  soevSystemId,
  soevSystemSpec,
  suiteContext,
  SoevProjectSchema,
  SoevStratifyKeySchema,
  type SoevProject,
  type SoevProjectResult,
} from './project';
export { globPattern, matchGlob } from './globs';
