/** Criterion kinds (soev's; docs/criteria.md): the registry, the citation reading, and grading one criterion point. */
export * from './types';
export { criterionKind, criterionKindNames, resolveCriterionKind, listCriterionKinds, type KindResolution } from './registry';
export * from './citations';
export { sentencesOf, detectLanguage, DETECTABLE_LANGUAGES } from './deterministic/language';
export { evaluateCriterionPoint, verdictFromCriterion } from './evaluate';
export { CorpusUnavailableError, parseCorpusJsonl, type CorpusParse } from './corpus';
