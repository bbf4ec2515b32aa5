-- A finished run's judge reliability (the run and each model), how its judges were read and its
-- scores by category and rule, computed once when the run is summarised: the run, blueprint, diff and model pages read them
-- instead of going through every judged verdict on each request.
ALTER TABLE "runs" ADD COLUMN "judge_reliability" JSONB;
ALTER TABLE "runs" ADD COLUMN "judge_methods" JSONB;
ALTER TABLE "runs" ADD COLUMN "groups" JSONB;
