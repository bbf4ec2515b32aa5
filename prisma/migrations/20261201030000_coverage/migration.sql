-- Coverage of each score (judged and deterministic verdicts planned vs. with a result), and
-- why a run's score was withheld for lack of it.
ALTER TABLE "run_model_summaries" ADD COLUMN "judged_verdicts" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN "judged_scored" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN "deterministic_verdicts" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN "deterministic_scored" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN "withheld_reason" TEXT;

ALTER TABLE "blueprint_model_summaries" ADD COLUMN "judged_verdicts" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN "judged_scored" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN "deterministic_verdicts" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN "deterministic_scored" INTEGER NOT NULL DEFAULT 0;
