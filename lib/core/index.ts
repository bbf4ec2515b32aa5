/**
 * The only import path into lib/core from outside it. lib/core is pure: no I/O, env,
 * clock or implicit randomness; everything it needs comes in as arguments or ports.
 */
export * from './blueprint';
export * from './soev';
export * from './judging';
export * from './correct';
export * from './scoring';
export * from './criteria';
export * from './points';
export * from './runs';
export * from './evidence';
export * from './search';
export * from './retrieval';
export * from './retrieval-runs';
// The judged kinds: the JudgePort's adapter (lib/server/runs/grading/criterion-judge.ts) reads these.
export { JUDGED_KINDS, JudgeUnavailableError, choiceRequest, type JudgeChoice } from './criteria/judged';
export type { ConversationEvidence, CorpusPort, CriterionEvidence, CriterionKindDef, CriterionServices, CriterionVerdict, JudgePort } from './criteria/types';
export * from './split';
export * from './exports';
export * from './human';
export * from './authoring';
export { alternatives, compileJsonPath, compileLinear, escapeRegExp, fragment, literal, pattern, selectJsonPath, sourceOf, withFlags, type Fragment } from './untrusted';
