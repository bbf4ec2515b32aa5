-- Figures computed once and read by every page that shows them.
-- A run's minimum detectable effect (lib/core planBlueprint), written when the run is summarised
-- (lib/server/runs/summarise.ts): the blueprint page's planner and the drift checks read it. Runs
-- summarised before this column keep it null, and their readers compute it with the same function.
-- AlterTable
ALTER TABLE "runs" ADD COLUMN "mde" DOUBLE PRECISION;

-- A retrieval model's status on its run over every thresholded metric (lib/core
-- retrievalModelStatus), stored with each of its metric rows: the run page and the home board
-- read it instead of deciding it each their own way.
-- AlterTable
ALTER TABLE "retrieval_metric_results" ADD COLUMN "model_status" TEXT;

-- Rows stored before the column: the worst stored status of the model's metrics on the run, the
-- rule retrievalModelStatus applies (fail over warn over pass; a metric without one is skipped).
UPDATE "retrieval_metric_results" AS m
SET "model_status" = w."status"
FROM (
    SELECT "run_id", "model_id",
           CASE WHEN bool_or("status" = 'fail') THEN 'fail' WHEN bool_or("status" = 'warn') THEN 'warn' WHEN bool_or("status" = 'pass') THEN 'pass' END AS "status"
    FROM "retrieval_metric_results"
    GROUP BY "run_id", "model_id"
) AS w
WHERE m."run_id" = w."run_id" AND m."model_id" = w."model_id";
