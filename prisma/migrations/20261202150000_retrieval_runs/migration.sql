-- Retrieval runs (issue 13): a run's kind (chat | retrieval); the parsed data files of a retrieval
-- blueprint, stored once per content and linked to the blueprint version that read them at its
-- last sync; the embedding journal of a retrieval run (one row per model × kind × batch); and its
-- results: per run × model × metric (value, bootstrap interval over queries, ladder status) and per
-- run × model × query (the top-k ranking and the query's metrics; JSON shapes in
-- lib/server/runs/retrieval/stored.ts, parsed by the writer and the readers).
-- AlterTable
ALTER TABLE "runs" ADD COLUMN     "kind" TEXT NOT NULL DEFAULT 'chat';

-- CreateTable
CREATE TABLE "retrieval_datasets" (
    "id" TEXT NOT NULL,
    "content_hash" TEXT NOT NULL,
    "data" JSONB NOT NULL,
    "doc_count" INTEGER NOT NULL,
    "query_count" INTEGER NOT NULL,
    "qrel_count" INTEGER NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "retrieval_datasets_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "retrieval_version_data" (
    "version_id" TEXT NOT NULL,
    "dataset_id" TEXT,
    "issues" JSONB NOT NULL DEFAULT '[]',
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "retrieval_version_data_pkey" PRIMARY KEY ("version_id")
);

-- CreateTable
CREATE TABLE "retrieval_batches" (
    "id" TEXT NOT NULL,
    "run_id" TEXT NOT NULL,
    "model_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "batch_index" INTEGER NOT NULL,
    "texts" INTEGER NOT NULL,
    "calls" INTEGER NOT NULL,
    "cached" INTEGER NOT NULL,
    "cost_usd" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "error" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "retrieval_batches_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "retrieval_metric_results" (
    "id" TEXT NOT NULL,
    "run_id" TEXT NOT NULL,
    "model_id" TEXT NOT NULL,
    "metric" TEXT NOT NULL,
    "value" DOUBLE PRECISION,
    "ci_low" DOUBLE PRECISION,
    "ci_high" DOUBLE PRECISION,
    "ci_method" TEXT,
    "ci_level" DOUBLE PRECISION,
    "ci_n" INTEGER,
    "ci_clusters" INTEGER,
    "ci_resamples" INTEGER,
    "status" TEXT,
    "threshold" DOUBLE PRECISION,
    "primary" BOOLEAN NOT NULL DEFAULT false,
    "query_count" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "retrieval_metric_results_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "retrieval_query_results" (
    "id" TEXT NOT NULL,
    "run_id" TEXT NOT NULL,
    "model_id" TEXT NOT NULL,
    "query_id" TEXT NOT NULL,
    "ranking" JSONB NOT NULL,
    "relevant_ranks" JSONB NOT NULL DEFAULT '{}',
    "metrics" JSONB NOT NULL,

    CONSTRAINT "retrieval_query_results_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "retrieval_datasets_content_hash_key" ON "retrieval_datasets"("content_hash");

-- CreateIndex
CREATE INDEX "retrieval_version_data_dataset_id_idx" ON "retrieval_version_data"("dataset_id");

-- CreateIndex
CREATE UNIQUE INDEX "retrieval_batches_run_id_model_id_kind_batch_index_key" ON "retrieval_batches"("run_id", "model_id", "kind", "batch_index");

-- CreateIndex
CREATE INDEX "retrieval_metric_results_model_id_idx" ON "retrieval_metric_results"("model_id");

-- CreateIndex
CREATE UNIQUE INDEX "retrieval_metric_results_run_id_model_id_metric_key" ON "retrieval_metric_results"("run_id", "model_id", "metric");

-- CreateIndex
CREATE INDEX "retrieval_query_results_run_id_query_id_idx" ON "retrieval_query_results"("run_id", "query_id");

-- CreateIndex
CREATE UNIQUE INDEX "retrieval_query_results_run_id_model_id_query_id_key" ON "retrieval_query_results"("run_id", "model_id", "query_id");

-- AddForeignKey
ALTER TABLE "retrieval_version_data" ADD CONSTRAINT "retrieval_version_data_version_id_fkey" FOREIGN KEY ("version_id") REFERENCES "blueprint_versions"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "retrieval_version_data" ADD CONSTRAINT "retrieval_version_data_dataset_id_fkey" FOREIGN KEY ("dataset_id") REFERENCES "retrieval_datasets"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "retrieval_batches" ADD CONSTRAINT "retrieval_batches_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "runs"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "retrieval_metric_results" ADD CONSTRAINT "retrieval_metric_results_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "runs"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "retrieval_query_results" ADD CONSTRAINT "retrieval_query_results_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "runs"("id") ON DELETE CASCADE ON UPDATE CASCADE;

