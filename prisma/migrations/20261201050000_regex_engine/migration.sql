-- Which regex engine decided a regex point (issue 11, finding 2): 're2' (linear time) or
-- 'sandbox' (the JS engine in QuickJS, for lookaround and backreferences); null otherwise.
ALTER TABLE "verdicts" ADD COLUMN "regex_engine" TEXT;

-- The per-run sandbox time budget (issue 11, finding 4): what the run may use (a PR run's
-- budget; null = the platform's default) and what it has used, in milliseconds.
ALTER TABLE "runs" ADD COLUMN "max_sandbox_ms" INTEGER;
ALTER TABLE "runs" ADD COLUMN "sandbox_ms" DOUBLE PRECISION NOT NULL DEFAULT 0;
