-- Criterion kinds (issue 12): the HTTP system's JSON body beside each reply (citations are read
-- from it when graded, also on a rescore), a criterion verdict's facts, and soev's per-attempt pass.
ALTER TABLE "replies" ADD COLUMN "structured" JSONB;
ALTER TABLE "verdicts" ADD COLUMN "data" JSONB;
ALTER TABLE "attempt_scores" ADD COLUMN "passed" BOOLEAN;
