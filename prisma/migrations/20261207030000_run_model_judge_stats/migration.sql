-- Each model's judge statistics in a finished run (sums that pool exactly), stored when the run is
-- summarised: the home and model pages pooled α over every judged verdict of their runs on each
-- request (2.7 s with a 1,000,000-verdict run on the board).
ALTER TABLE "run_model_summaries" ADD COLUMN "judge_stats" JSONB;
