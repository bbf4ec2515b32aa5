-- Provider batch APIs (issue 15): a batch-mode run's submitted batches, and their lines
-- imported exactly once (by run and call key).
CREATE TABLE "provider_batches" (
    "id" TEXT NOT NULL,
    "run_id" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "external_id" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "lines" JSONB NOT NULL,
    "line_count" INTEGER NOT NULL,
    "polls" INTEGER NOT NULL DEFAULT 0,
    "submitted_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "imported_at" TIMESTAMP(3),
    CONSTRAINT "provider_batches_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "provider_batches_provider_external_id_key" ON "provider_batches"("provider", "external_id");
CREATE INDEX "provider_batches_run_id_state_idx" ON "provider_batches"("run_id", "state");
ALTER TABLE "provider_batches" ADD CONSTRAINT "provider_batches_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "runs"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "batch_results" (
    "run_id" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "batch_id" TEXT NOT NULL,
    "custom_id" TEXT NOT NULL,
    "response" JSONB,
    "error" TEXT,
    "error_kind" TEXT,
    "cost_usd" DOUBLE PRECISION,
    "discount_usd" DOUBLE PRECISION,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "batch_results_pkey" PRIMARY KEY ("run_id", "key")
);
CREATE INDEX "batch_results_batch_id_idx" ON "batch_results"("batch_id");
ALTER TABLE "batch_results" ADD CONSTRAINT "batch_results_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "runs"("id") ON DELETE CASCADE ON UPDATE CASCADE;
