-- A prompt's attempts across the models (the prompt page, the heatmap's gate marks) read one index range:
-- without it both scanned every attempt of the run (327 ms at 100,000 attempts). And the models a
-- finished run could not price, found once when it is summarised: every run page's header read
-- them from all of the run's replies.
ALTER TABLE "runs" ADD COLUMN "unpriced_models" JSONB;

-- CreateIndex
CREATE INDEX "attempt_scores_run_id_prompt_key_idx" ON "attempt_scores"("run_id", "prompt_key");
