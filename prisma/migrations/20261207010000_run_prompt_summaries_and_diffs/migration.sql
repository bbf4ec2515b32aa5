-- A finished run's prompts over their heatmap cells (position, sealed, mean score), its planner
-- answer and the comparisons of two finished runs, each computed once: the heatmap (by position or
-- hardest first), points, blueprint and diff pages read these instead of every cell of the run.
-- The planner's answer for a finished run (every pair of models), once, as its MDE already is.
ALTER TABLE "runs" ADD COLUMN "planner" JSONB;

-- CreateTable
CREATE TABLE "run_prompt_summaries" (
    "run_id" TEXT NOT NULL,
    "prompt_key" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "sealed" BOOLEAN NOT NULL,
    "mean" DOUBLE PRECISION,
    "cells" INTEGER NOT NULL,

    CONSTRAINT "run_prompt_summaries_pkey" PRIMARY KEY ("run_id","prompt_key")
);

-- CreateTable
CREATE TABLE "run_diffs" (
    "older_run_id" TEXT NOT NULL,
    "newer_run_id" TEXT NOT NULL,
    "diff" JSONB NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "run_diffs_pkey" PRIMARY KEY ("older_run_id","newer_run_id")
);

-- CreateIndex
CREATE INDEX "run_prompt_summaries_run_id_sealed_position_idx" ON "run_prompt_summaries"("run_id", "sealed", "position");

-- CreateIndex
CREATE INDEX "run_prompt_summaries_run_id_sealed_mean_idx" ON "run_prompt_summaries"("run_id", "sealed", "mean");

-- CreateIndex
CREATE INDEX "run_diffs_newer_run_id_idx" ON "run_diffs"("newer_run_id");

-- AddForeignKey
ALTER TABLE "run_prompt_summaries" ADD CONSTRAINT "run_prompt_summaries_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "runs"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "run_diffs" ADD CONSTRAINT "run_diffs_older_run_id_fkey" FOREIGN KEY ("older_run_id") REFERENCES "runs"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "run_diffs" ADD CONSTRAINT "run_diffs_newer_run_id_fkey" FOREIGN KEY ("newer_run_id") REFERENCES "runs"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- Runs that finished before this table existed: their cells no longer change.
INSERT INTO "run_prompt_summaries" ("run_id", "prompt_key", "position", "sealed", "mean", "cells")
SELECT c."run_id", c."prompt_key", vp."position", vp."split" = 'sealed', avg(c."score"), count(*)::int
FROM "run_cell_summaries" c
JOIN "runs" r ON r."id" = c."run_id"
JOIN "version_prompts" vp ON vp."version_id" = r."version_id" AND vp."prompt_key" = c."prompt_key"
WHERE r."status" IN ('completed', 'failed', 'cancelled', 'budget_exceeded')
GROUP BY c."run_id", c."prompt_key", vp."position", vp."split";
