-- A run's plan under Inngest (lib/server/runs/units/): one row per unit of work with its state and
-- lease, and per run the current execution's count of units not settled yet (the slice that
-- brings it to 0 asks for the finish). The plan lived in a step's output before, which Inngest
-- caps at 4 MB (https://www.inngest.com/docs/usage-limits/inngest).
-- CreateTable
CREATE TABLE "run_units" (
    "id" TEXT NOT NULL,
    "run_id" TEXT NOT NULL,
    "execution" TEXT NOT NULL,
    "step" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "data" JSONB NOT NULL,
    "key1" TEXT NOT NULL,
    "key2" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "waits_on" INTEGER NOT NULL DEFAULT 0,
    "then_id" TEXT,
    "holder" TEXT,
    "lease_expires_at" TIMESTAMP(3),
    "error" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "run_units_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "run_plans" (
    "run_id" TEXT NOT NULL,
    "execution" TEXT NOT NULL,
    "units" INTEGER NOT NULL,
    "open_units" INTEGER NOT NULL,
    "deadline_at" TIMESTAMP(3) NOT NULL,
    "finished_at" TIMESTAMP(3),
    "finished_by" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "run_plans_pkey" PRIMARY KEY ("run_id")
);

-- CreateIndex
CREATE INDEX "run_units_run_id_state_idx" ON "run_units"("run_id", "state");

-- CreateIndex
CREATE INDEX "run_units_holder_idx" ON "run_units"("holder");

-- CreateIndex
CREATE UNIQUE INDEX "run_units_run_id_key_key" ON "run_units"("run_id", "key");

-- AddForeignKey
ALTER TABLE "run_units" ADD CONSTRAINT "run_units_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "runs"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "run_plans" ADD CONSTRAINT "run_plans_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "runs"("id") ON DELETE CASCADE ON UPDATE CASCADE;

