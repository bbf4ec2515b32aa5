-- Provider calls and cache hits per run: the budget (max_calls) is enforced against
-- provider_calls atomically, across every worker.
ALTER TABLE "runs" ADD COLUMN "provider_calls" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "runs" ADD COLUMN "cache_hits" INTEGER NOT NULL DEFAULT 0;

-- A verdict's explanation (the function's or the check's), apart from judges' reasoning.
ALTER TABLE "verdicts" ADD COLUMN "detail" TEXT;
