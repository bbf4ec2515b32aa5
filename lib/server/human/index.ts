/**
 * Human judgement: who may review (grants), what is drawn for review (verdicts and pairs), the
 * queues a reviewer is offered, their answers, a maintainer's removal of a reviewer's labels, and
 * the figures made from the labels. Pages and routes import from here.
 */
export { ALL_BLUEPRINTS, GitHubLoginSchema, grantReviewer, mayReview, revokeReviewer, reviewableBlueprints, type ReviewableBlueprint, type ReviewUser } from './grants';
export { DEFAULT_DRAW_DESIGN, drawReviewItems, stratumOf, type DrawReviewItemsInput, type ReviewStratum } from './draws';
export { nextReviewItem, shownReviewItem } from './queue';
export { answerReviewItem, undoLastReview, type ReviewItemAnswer } from './answers';
export { REVIEW_LIMITS, type ReviewLimits } from './limits';
export { drawPairs, type DrawPairsInput } from './pairs';
export { nextPair, shownPair, shownSwapped } from './pair-queue';
export { answerPair, undoLastPair, type PairAnswerInput } from './pair-answers';
export { PairAnswerSchema, preferredModel, type PairAnswer } from './preference';
export { removeReviewerLabels } from './removal';
export { HUMAN_FIGURES_SEED, humanFiguresSettled, recomputeHumanFigures, refreshHumanFigures, scheduleHumanFigures } from './figures';
export { adminNotice, formAnswer, queueBlueprintOf, reviewAdminActor, reviewerOf } from './http';
export { BlueprintIdField, checkbox, optionalInt, optionalText, ReviewAnswerBody, ReviewQueueKindSchema } from './route-schemas';
