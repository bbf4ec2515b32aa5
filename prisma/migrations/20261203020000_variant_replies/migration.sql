-- Variants (issue 12, seed 003): each of a prompt's `variants:` runs on its own conversation with
-- the cell's model, system prompt, temperature and attempt. Their replies are kept here, keyed by
-- the cell's natural key and the variant's name, not in `replies`: a variant is evidence for
-- `compare.*` criteria, never an extra attempt in a cell summary or heatmap.
CREATE TABLE "variant_replies" (
    "id" TEXT NOT NULL,
    "run_id" TEXT NOT NULL,
    "prompt_key" TEXT NOT NULL,
    "model_id" TEXT NOT NULL,
    "system_index" INTEGER NOT NULL DEFAULT 0,
    "temperature_index" INTEGER NOT NULL DEFAULT 0,
    "attempt" INTEGER NOT NULL DEFAULT 0,
    "name" TEXT NOT NULL,
    "turns" JSONB NOT NULL,
    "content" TEXT NOT NULL,
    "structured" JSONB,
    "error" TEXT,
    "error_kind" TEXT,
    "prompt_tokens" INTEGER,
    "completion_tokens" INTEGER,
    "latency_ms" INTEGER,
    "cost_usd" DOUBLE PRECISION,
    "from_cache" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "variant_replies_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "variant_replies_cell_name_key" ON "variant_replies"("run_id", "prompt_key", "model_id", "system_index", "temperature_index", "attempt", "name");
ALTER TABLE "variant_replies" ADD CONSTRAINT "variant_replies_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "runs"("id") ON DELETE CASCADE ON UPDATE CASCADE;
