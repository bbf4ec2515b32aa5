-- Why a run is waiting and until when (lib/server/runs/run-waits.ts): one row per run and model
-- whose calls are held back (a 429 with a retry-after, a backoff after errors, a provider batch
-- not yet ended). The runner writes a row before it waits and deletes it once a call of that
-- model goes through again, so the progress page can say what the terminal says.
-- CreateTable
CREATE TABLE "run_waits" (
    "run_id" TEXT NOT NULL,
    "model_id" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "message" TEXT,
    "http_status" INTEGER,
    "retry_after_at" TIMESTAMP(3),
    "next_attempt_at" TIMESTAMP(3),
    "attempt" INTEGER NOT NULL DEFAULT 1,
    "since" TIMESTAMP(3) NOT NULL,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "run_waits_pkey" PRIMARY KEY ("run_id","model_id")
);

-- AddForeignKey
ALTER TABLE "run_waits" ADD CONSTRAINT "run_waits_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "runs"("id") ON DELETE CASCADE ON UPDATE CASCADE;
