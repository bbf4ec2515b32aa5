-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateEnum
CREATE TYPE "source_kind" AS ENUM ('github', 'local');

-- CreateEnum
CREATE TYPE "run_status" AS ENUM ('queued', 'running', 'judging', 'summarising', 'completed', 'failed', 'cancelled', 'budget_exceeded');

-- CreateEnum
CREATE TYPE "verdict_status" AS ENUM ('pass', 'fail', 'not_applicable', 'error');

-- CreateEnum
CREATE TYPE "role" AS ENUM ('reader', 'author', 'maintainer', 'admin');

-- CreateTable
CREATE TABLE "blueprint_sources" (
    "id" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "kind" "source_kind" NOT NULL,
    "owner" TEXT,
    "repo" TEXT,
    "branch" TEXT,
    "local_path" TEXT,
    "last_synced_sha" TEXT,
    "last_synced_at" TIMESTAMP(3),
    "last_sync_error" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "blueprint_sources_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "sync_records" (
    "id" TEXT NOT NULL,
    "source_id" TEXT NOT NULL,
    "commit_sha" TEXT,
    "trigger" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "added" INTEGER NOT NULL DEFAULT 0,
    "changed" INTEGER NOT NULL DEFAULT 0,
    "removed" INTEGER NOT NULL DEFAULT 0,
    "unchanged" INTEGER NOT NULL DEFAULT 0,
    "invalid" INTEGER NOT NULL DEFAULT 0,
    "blobs_fetched" INTEGER NOT NULL DEFAULT 0,
    "error" TEXT,
    "started_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMP(3),

    CONSTRAINT "sync_records_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "blueprints" (
    "id" TEXT NOT NULL,
    "source_id" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "description" TEXT,
    "tags" TEXT[],
    "author" JSONB,
    "prompt_count" INTEGER NOT NULL DEFAULT 0,
    "latest_version_id" TEXT,
    "removed_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "blueprints_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "blueprint_versions" (
    "id" TEXT NOT NULL,
    "blueprint_id" TEXT NOT NULL,
    "content_hash" TEXT NOT NULL,
    "source_commit" TEXT,
    "blob_sha" TEXT,
    "path" TEXT NOT NULL,
    "raw_text" TEXT NOT NULL,
    "normalized" JSONB,
    "validation_errors" JSONB NOT NULL DEFAULT '[]',
    "valid" BOOLEAN NOT NULL,
    "parser_version" TEXT NOT NULL,
    "prompt_count" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "blueprint_versions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "version_prompts" (
    "id" TEXT NOT NULL,
    "version_id" TEXT NOT NULL,
    "prompt_key" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "messages" JSONB NOT NULL,
    "system" TEXT,
    "ideal" TEXT,
    "weight" DOUBLE PRECISION NOT NULL DEFAULT 1,
    "citation" TEXT,
    "split" TEXT NOT NULL DEFAULT 'dev',
    "status" TEXT NOT NULL DEFAULT 'active',
    "category" TEXT,
    "points" JSONB NOT NULL,
    "point_count" INTEGER NOT NULL,
    "repeats" INTEGER NOT NULL DEFAULT 1,

    CONSTRAINT "version_prompts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "model_collections" (
    "id" TEXT NOT NULL,
    "source_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "models" JSONB NOT NULL,
    "commit_sha" TEXT,
    "blob_sha" TEXT,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "model_collections_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "models" (
    "id" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "display_name" TEXT NOT NULL,
    "endpoint" JSONB,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "models_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "runs" (
    "id" TEXT NOT NULL,
    "identity_hash" TEXT NOT NULL,
    "blueprint_id" TEXT NOT NULL,
    "version_id" TEXT NOT NULL,
    "source_commit" TEXT,
    "status" "run_status" NOT NULL DEFAULT 'queued',
    "trigger" TEXT NOT NULL,
    "models" JSONB NOT NULL,
    "judges" JSONB NOT NULL,
    "config" JSONB NOT NULL,
    "parent_run_id" TEXT,
    "pull_request_id" TEXT,
    "max_calls" INTEGER,
    "max_cost_usd" DOUBLE PRECISION,
    "total_calls" INTEGER NOT NULL DEFAULT 0,
    "done_calls" INTEGER NOT NULL DEFAULT 0,
    "error_calls" INTEGER NOT NULL DEFAULT 0,
    "total_verdicts" INTEGER NOT NULL DEFAULT 0,
    "done_verdicts" INTEGER NOT NULL DEFAULT 0,
    "error_verdicts" INTEGER NOT NULL DEFAULT 0,
    "cost_usd" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "error" TEXT,
    "created_by_id" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "started_at" TIMESTAMP(3),
    "finished_at" TIMESTAMP(3),
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "runs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "replies" (
    "id" TEXT NOT NULL,
    "run_id" TEXT NOT NULL,
    "prompt_key" TEXT NOT NULL,
    "model_id" TEXT NOT NULL,
    "system_index" INTEGER NOT NULL DEFAULT 0,
    "temperature_index" INTEGER NOT NULL DEFAULT 0,
    "temperature" DOUBLE PRECISION,
    "attempt" INTEGER NOT NULL DEFAULT 0,
    "turns" JSONB NOT NULL,
    "content" TEXT NOT NULL,
    "tool_calls" JSONB,
    "finish_reason" TEXT,
    "prompt_tokens" INTEGER,
    "completion_tokens" INTEGER,
    "latency_ms" INTEGER,
    "cost_usd" DOUBLE PRECISION,
    "error" TEXT,
    "error_kind" TEXT,
    "cache_key" TEXT,
    "from_cache" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "replies_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "verdicts" (
    "id" TEXT NOT NULL,
    "run_id" TEXT NOT NULL,
    "reply_id" TEXT NOT NULL,
    "prompt_key" TEXT NOT NULL,
    "model_id" TEXT NOT NULL,
    "point_index" INTEGER NOT NULL,
    "status" "verdict_status" NOT NULL,
    "score" DOUBLE PRECISION,
    "kind" TEXT NOT NULL,
    "point_text" TEXT NOT NULL,
    "fn" TEXT,
    "args" JSONB,
    "weight" DOUBLE PRECISION NOT NULL,
    "gate" BOOLEAN NOT NULL DEFAULT false,
    "path" TEXT,
    "source" TEXT NOT NULL DEFAULT 'should',
    "distribution" JSONB,
    "method" TEXT,
    "reasoning" TEXT,
    "judges" JSONB,
    "spread" DOUBLE PRECISION,
    "alpha" DOUBLE PRECISION,
    "disagreement" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "verdicts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "attempt_scores" (
    "id" TEXT NOT NULL,
    "run_id" TEXT NOT NULL,
    "reply_id" TEXT NOT NULL,
    "prompt_key" TEXT NOT NULL,
    "model_id" TEXT NOT NULL,
    "score" DOUBLE PRECISION,
    "error_count" INTEGER NOT NULL DEFAULT 0,
    "gate_failed" BOOLEAN NOT NULL DEFAULT false,
    "no_applicable" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "attempt_scores_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "run_cell_summaries" (
    "id" TEXT NOT NULL,
    "run_id" TEXT NOT NULL,
    "prompt_key" TEXT NOT NULL,
    "model_id" TEXT NOT NULL,
    "score" DOUBLE PRECISION,
    "pass_at_k" DOUBLE PRECISION,
    "pass_hat_k" DOUBLE PRECISION,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "error_count" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "run_cell_summaries_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "run_model_summaries" (
    "id" TEXT NOT NULL,
    "run_id" TEXT NOT NULL,
    "model_id" TEXT NOT NULL,
    "score" DOUBLE PRECISION,
    "ci_low" DOUBLE PRECISION,
    "ci_high" DOUBLE PRECISION,
    "prompt_count" INTEGER NOT NULL DEFAULT 0,
    "reply_count" INTEGER NOT NULL DEFAULT 0,
    "verdict_count" INTEGER NOT NULL DEFAULT 0,
    "error_count" INTEGER NOT NULL DEFAULT 0,
    "cost_usd" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "latency_ms_p50" INTEGER,

    CONSTRAINT "run_model_summaries_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "blueprint_model_summaries" (
    "id" TEXT NOT NULL,
    "blueprint_id" TEXT NOT NULL,
    "model_id" TEXT NOT NULL,
    "run_id" TEXT NOT NULL,
    "score" DOUBLE PRECISION,
    "ci_low" DOUBLE PRECISION,
    "ci_high" DOUBLE PRECISION,
    "error_count" INTEGER NOT NULL DEFAULT 0,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "blueprint_model_summaries_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "response_cache" (
    "key" TEXT NOT NULL,
    "model_id" TEXT NOT NULL,
    "response" JSONB NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "response_cache_pkey" PRIMARY KEY ("key")
);

-- CreateTable
CREATE TABLE "job_steps" (
    "id" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "run_id" TEXT,
    "function" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "output" JSONB,
    "error" TEXT,
    "started_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMP(3),

    CONSTRAINT "job_steps_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "pull_requests" (
    "id" TEXT NOT NULL,
    "source_id" TEXT NOT NULL,
    "number" INTEGER NOT NULL,
    "head_sha" TEXT NOT NULL,
    "author" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "approved_by" TEXT,
    "approved_at" TIMESTAMP(3),
    "check_run_id" TEXT,
    "comment_id" TEXT,
    "validation" JSONB,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "pull_requests_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_deliveries" (
    "id" TEXT NOT NULL,
    "event" TEXT NOT NULL,
    "received_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "processed_at" TIMESTAMP(3),
    "outcome" TEXT,

    CONSTRAINT "webhook_deliveries_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "users" (
    "id" TEXT NOT NULL,
    "github_login" TEXT NOT NULL,
    "name" TEXT,
    "role" "role" NOT NULL DEFAULT 'reader',
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "users_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "sessions" (
    "token_hash" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "expires_at" TIMESTAMP(3) NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "sessions_pkey" PRIMARY KEY ("token_hash")
);

-- CreateTable
CREATE TABLE "rate_limits" (
    "key" TEXT NOT NULL,
    "window_start" TIMESTAMP(3) NOT NULL,
    "count" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "rate_limits_pkey" PRIMARY KEY ("key","window_start")
);

-- CreateTable
CREATE TABLE "embedding_vectors" (
    "id" TEXT NOT NULL,
    "run_id" TEXT NOT NULL,
    "model_id" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "item_key" TEXT NOT NULL,
    "vector" DOUBLE PRECISION[],
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "embedding_vectors_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "blueprint_sources_key_key" ON "blueprint_sources"("key");

-- CreateIndex
CREATE INDEX "sync_records_source_id_started_at_idx" ON "sync_records"("source_id", "started_at" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "blueprints_latest_version_id_key" ON "blueprints"("latest_version_id");

-- CreateIndex
CREATE INDEX "blueprints_removed_at_title_idx" ON "blueprints"("removed_at", "title");

-- CreateIndex
CREATE INDEX "blueprints_tags_idx" ON "blueprints" USING GIN ("tags");

-- CreateIndex
CREATE UNIQUE INDEX "blueprints_source_id_path_key" ON "blueprints"("source_id", "path");

-- CreateIndex
CREATE INDEX "blueprint_versions_blueprint_id_created_at_idx" ON "blueprint_versions"("blueprint_id", "created_at" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "blueprint_versions_blueprint_id_content_hash_key" ON "blueprint_versions"("blueprint_id", "content_hash");

-- CreateIndex
CREATE UNIQUE INDEX "version_prompts_version_id_prompt_key_key" ON "version_prompts"("version_id", "prompt_key");

-- CreateIndex
CREATE UNIQUE INDEX "version_prompts_version_id_position_key" ON "version_prompts"("version_id", "position");

-- CreateIndex
CREATE UNIQUE INDEX "model_collections_source_id_name_key" ON "model_collections"("source_id", "name");

-- CreateIndex
CREATE INDEX "runs_blueprint_id_created_at_idx" ON "runs"("blueprint_id", "created_at" DESC);

-- CreateIndex
CREATE INDEX "runs_identity_hash_idx" ON "runs"("identity_hash");

-- CreateIndex
CREATE INDEX "runs_status_created_at_idx" ON "runs"("status", "created_at" DESC);

-- CreateIndex
CREATE INDEX "replies_run_id_model_id_idx" ON "replies"("run_id", "model_id");

-- CreateIndex
CREATE UNIQUE INDEX "replies_run_id_prompt_key_model_id_system_index_temperature_key" ON "replies"("run_id", "prompt_key", "model_id", "system_index", "temperature_index", "attempt");

-- CreateIndex
CREATE INDEX "verdicts_run_id_prompt_key_model_id_idx" ON "verdicts"("run_id", "prompt_key", "model_id");

-- CreateIndex
CREATE INDEX "verdicts_run_id_point_index_model_id_idx" ON "verdicts"("run_id", "point_index", "model_id");

-- CreateIndex
CREATE INDEX "verdicts_run_id_status_idx" ON "verdicts"("run_id", "status");

-- CreateIndex
CREATE UNIQUE INDEX "verdicts_run_id_reply_id_point_index_key" ON "verdicts"("run_id", "reply_id", "point_index");

-- CreateIndex
CREATE INDEX "attempt_scores_run_id_model_id_prompt_key_idx" ON "attempt_scores"("run_id", "model_id", "prompt_key");

-- CreateIndex
CREATE UNIQUE INDEX "attempt_scores_run_id_reply_id_key" ON "attempt_scores"("run_id", "reply_id");

-- CreateIndex
CREATE INDEX "run_cell_summaries_run_id_model_id_idx" ON "run_cell_summaries"("run_id", "model_id");

-- CreateIndex
CREATE UNIQUE INDEX "run_cell_summaries_run_id_prompt_key_model_id_key" ON "run_cell_summaries"("run_id", "prompt_key", "model_id");

-- CreateIndex
CREATE INDEX "run_model_summaries_model_id_idx" ON "run_model_summaries"("model_id");

-- CreateIndex
CREATE UNIQUE INDEX "run_model_summaries_run_id_model_id_key" ON "run_model_summaries"("run_id", "model_id");

-- CreateIndex
CREATE INDEX "blueprint_model_summaries_model_id_idx" ON "blueprint_model_summaries"("model_id");

-- CreateIndex
CREATE UNIQUE INDEX "blueprint_model_summaries_blueprint_id_model_id_key" ON "blueprint_model_summaries"("blueprint_id", "model_id");

-- CreateIndex
CREATE INDEX "response_cache_model_id_idx" ON "response_cache"("model_id");

-- CreateIndex
CREATE UNIQUE INDEX "job_steps_key_key" ON "job_steps"("key");

-- CreateIndex
CREATE INDEX "job_steps_run_id_idx" ON "job_steps"("run_id");

-- CreateIndex
CREATE INDEX "job_steps_status_started_at_idx" ON "job_steps"("status", "started_at" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "pull_requests_source_id_number_head_sha_key" ON "pull_requests"("source_id", "number", "head_sha");

-- CreateIndex
CREATE UNIQUE INDEX "users_github_login_key" ON "users"("github_login");

-- CreateIndex
CREATE INDEX "sessions_user_id_idx" ON "sessions"("user_id");

-- CreateIndex
CREATE UNIQUE INDEX "embedding_vectors_run_id_model_id_role_item_key_key" ON "embedding_vectors"("run_id", "model_id", "role", "item_key");

-- AddForeignKey
ALTER TABLE "sync_records" ADD CONSTRAINT "sync_records_source_id_fkey" FOREIGN KEY ("source_id") REFERENCES "blueprint_sources"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "blueprints" ADD CONSTRAINT "blueprints_source_id_fkey" FOREIGN KEY ("source_id") REFERENCES "blueprint_sources"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "blueprints" ADD CONSTRAINT "blueprints_latest_version_id_fkey" FOREIGN KEY ("latest_version_id") REFERENCES "blueprint_versions"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "blueprint_versions" ADD CONSTRAINT "blueprint_versions_blueprint_id_fkey" FOREIGN KEY ("blueprint_id") REFERENCES "blueprints"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "version_prompts" ADD CONSTRAINT "version_prompts_version_id_fkey" FOREIGN KEY ("version_id") REFERENCES "blueprint_versions"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "model_collections" ADD CONSTRAINT "model_collections_source_id_fkey" FOREIGN KEY ("source_id") REFERENCES "blueprint_sources"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "runs" ADD CONSTRAINT "runs_blueprint_id_fkey" FOREIGN KEY ("blueprint_id") REFERENCES "blueprints"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "runs" ADD CONSTRAINT "runs_version_id_fkey" FOREIGN KEY ("version_id") REFERENCES "blueprint_versions"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "runs" ADD CONSTRAINT "runs_parent_run_id_fkey" FOREIGN KEY ("parent_run_id") REFERENCES "runs"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "runs" ADD CONSTRAINT "runs_pull_request_id_fkey" FOREIGN KEY ("pull_request_id") REFERENCES "pull_requests"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "runs" ADD CONSTRAINT "runs_created_by_id_fkey" FOREIGN KEY ("created_by_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "replies" ADD CONSTRAINT "replies_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "runs"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "verdicts" ADD CONSTRAINT "verdicts_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "runs"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "verdicts" ADD CONSTRAINT "verdicts_reply_id_fkey" FOREIGN KEY ("reply_id") REFERENCES "replies"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "attempt_scores" ADD CONSTRAINT "attempt_scores_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "runs"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "attempt_scores" ADD CONSTRAINT "attempt_scores_reply_id_fkey" FOREIGN KEY ("reply_id") REFERENCES "replies"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "run_cell_summaries" ADD CONSTRAINT "run_cell_summaries_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "runs"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "run_model_summaries" ADD CONSTRAINT "run_model_summaries_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "runs"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "blueprint_model_summaries" ADD CONSTRAINT "blueprint_model_summaries_blueprint_id_fkey" FOREIGN KEY ("blueprint_id") REFERENCES "blueprints"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "job_steps" ADD CONSTRAINT "job_steps_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "runs"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "pull_requests" ADD CONSTRAINT "pull_requests_source_id_fkey" FOREIGN KEY ("source_id") REFERENCES "blueprint_sources"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

