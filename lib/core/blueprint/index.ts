/** The blueprint module's public names (re-exported by lib/core/index.ts). */
export { parseBlueprint, parseBlueprintExact, type ParseOptions, type ParseResult } from './parse';
export { BlueprintIssueSchema, formatIssue, type BlueprintIssue, type IssueCode } from './errors';
export { blueprintIdFromPath, promptHashId, stableStringify, sha256Hex } from './ids';
export { systemPromptFor, systemPromptsToRun, temperaturesToRun } from './axes';
export { wevalBlueprint, wevalPrompt } from './weval';
export type { BlueprintFormat } from './documents';
export type { ResolvePointFunction } from './functions';
export * from './schema';
export { parsePointSource, type PointSourceResult } from './point-source';
export { blueprintSourceSchema, blueprintJsonSchema } from './source-schema';
export { BLUEPRINT_LIMITS, BlueprintLimitsSchema, type BlueprintLimits } from './limits';
export { compareCodeUnits, storableText, unstorableOffset } from './text';
/** Hostile blueprints from a red-team pass, for the security tests, the fuzz run and the bench. */
export * as hostileBlueprints from './hostile-blueprints';
export { isSealedPrompt, redactSealed, SEALED_SPLIT, type SealedRedaction } from './sealed';
export { toolModeOf, TOOL_MODES, type ToolMode, type PromptToolFields } from './tool-fields';
