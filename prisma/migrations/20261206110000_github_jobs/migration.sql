-- GitHub jobs run in process (no Inngest), kept until they succeed: a failed or interrupted
-- job is retried with a growing pause instead of being dropped (github/job-outbox.ts).
CREATE TABLE "github_jobs" (
    "id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "run_after" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "locked_until" TIMESTAMP(3),
    "last_error" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "github_jobs_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "github_jobs_status_run_after_idx" ON "github_jobs"("status", "run_after");
