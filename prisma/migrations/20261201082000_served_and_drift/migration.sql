-- What the provider says it served, on every reply (issue 14, drift): the response's `model`
-- field, OpenAI's `system_fingerprint`, and `provider_meta` (allow-listed response headers and
-- the response id; schema ProviderMetaSchema in lib/core/evidence/served.ts). Null on replies
-- stored before, and on replies that failed or came from fixtures.
ALTER TABLE "replies" ADD COLUMN "served_model" TEXT;
ALTER TABLE "replies" ADD COLUMN "system_fingerprint" TEXT;
ALTER TABLE "replies" ADD COLUMN "provider_meta" JSONB;

-- Drift checks: between two consecutive scheduled runs of one blueprint version, per model, the
-- paired difference over prompts (to − from) with its interval and the earlier run's minimum
-- detectable effect; `flagged` when the interval excludes 0 and the change is not shown to be
-- smaller than the MDE (lib/core/scoring/drift.ts). One row per (to run, model): recomputing is
-- idempotent.
CREATE TABLE "drift_checks" (
    "id" TEXT NOT NULL,
    "blueprint_id" TEXT NOT NULL,
    "version_id" TEXT NOT NULL,
    "model_id" TEXT NOT NULL,
    "from_run_id" TEXT NOT NULL,
    "to_run_id" TEXT NOT NULL,
    "paired" INTEGER NOT NULL,
    "difference" DOUBLE PRECISION,
    "ci_low" DOUBLE PRECISION,
    "ci_high" DOUBLE PRECISION,
    "mde" DOUBLE PRECISION,
    "flagged" BOOLEAN NOT NULL,
    "reason" TEXT NOT NULL,
    "served_model_before" TEXT,
    "served_model_after" TEXT,
    "fingerprint_before" TEXT,
    "fingerprint_after" TEXT,
    "served_changed" BOOLEAN NOT NULL DEFAULT false,
    "moved" JSONB NOT NULL DEFAULT '[]',
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "drift_checks_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "drift_checks_to_run_id_model_id_key" ON "drift_checks"("to_run_id", "model_id");
CREATE INDEX "drift_checks_created_at_idx" ON "drift_checks"("created_at" DESC);
CREATE INDEX "drift_checks_blueprint_id_model_id_created_at_idx" ON "drift_checks"("blueprint_id", "model_id", "created_at" DESC);

ALTER TABLE "drift_checks" ADD CONSTRAINT "drift_checks_blueprint_id_fkey" FOREIGN KEY ("blueprint_id") REFERENCES "blueprints"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "drift_checks" ADD CONSTRAINT "drift_checks_from_run_id_fkey" FOREIGN KEY ("from_run_id") REFERENCES "runs"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "drift_checks" ADD CONSTRAINT "drift_checks_to_run_id_fkey" FOREIGN KEY ("to_run_id") REFERENCES "runs"("id") ON DELETE CASCADE ON UPDATE CASCADE;
