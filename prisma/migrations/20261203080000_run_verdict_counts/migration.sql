-- Verdict counters beside the run, not on it (issue 15, verdict writes vs COPY): each committed
-- batch of verdicts appends one row per run here instead of updating the run's row. Every
-- verdict's foreign-key check share-locks its run's row; while the batch in flight before had
-- updated that row, each such check waited on it (0.75 of a plain COPY). The rows are folded into
-- runs.done_verdicts / error_verdicts at the run's end (and when many have piled up), and readers
-- add what is not folded yet in the same statement (lib/server/db/verdict-counts.ts).
-- CreateTable
CREATE TABLE "run_verdict_counts" (
    "id" BIGSERIAL NOT NULL,
    "run_id" TEXT NOT NULL,
    "done" INTEGER NOT NULL,
    "errors" INTEGER NOT NULL,

    CONSTRAINT "run_verdict_counts_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "run_verdict_counts_run_id_idx" ON "run_verdict_counts"("run_id");

-- AddForeignKey
ALTER TABLE "run_verdict_counts" ADD CONSTRAINT "run_verdict_counts_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "runs"("id") ON DELETE CASCADE ON UPDATE CASCADE;
