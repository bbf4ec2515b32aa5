/** The lineage split of `assay split` (docs/split.md): read the cases, assign sides, write them back. */
export { assignSplit, type SplitLineage, type SplitOutcome, type SplitStratum } from './assign';
export { readSplitFile, type SplitCase, type SplitCaseFacts, type SplitFile, type SplitSide } from './cases';
export { planSplit, type SplitFilePlan, type SplitInput, type SplitPlan } from './plan';
export { DEFAULT_SPLIT_SETTINGS, SplitSettingsSchema, StratifyKeySchema, stratifyKeyOf, type SplitSettings, type StratifyKey } from './settings';
export { writeSplit } from './write';
