-- Intervals that say how they were made (method, level, n attempts in clusters prompts,
-- resamples or null for closed-form methods), and the unbiased pass@k / pass^k for every k.
ALTER TABLE "run_cell_summaries" ADD COLUMN "scored_attempts" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN "passes" INTEGER,
ADD COLUMN "pass_curve" JSONB;

ALTER TABLE "run_model_summaries" ADD COLUMN "ci_method" TEXT,
ADD COLUMN "ci_level" DOUBLE PRECISION,
ADD COLUMN "ci_n" INTEGER,
ADD COLUMN "ci_clusters" INTEGER,
ADD COLUMN "ci_resamples" INTEGER,
ADD COLUMN "attempt_count" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN "pass_threshold" DOUBLE PRECISION,
ADD COLUMN "pass_curve" JSONB;

ALTER TABLE "blueprint_model_summaries" ADD COLUMN "ci_method" TEXT,
ADD COLUMN "ci_level" DOUBLE PRECISION,
ADD COLUMN "ci_n" INTEGER,
ADD COLUMN "ci_clusters" INTEGER,
ADD COLUMN "ci_resamples" INTEGER,
ADD COLUMN "attempt_count" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN "pass_threshold" DOUBLE PRECISION,
ADD COLUMN "pass_curve" JSONB;
