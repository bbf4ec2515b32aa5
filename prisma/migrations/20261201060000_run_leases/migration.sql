-- Run leases (issue 11, finding 6): one worker executes a run at a time; a crashed holder's
-- lease lapses at lease_expires_at. reserved_calls: calls reserved against max_calls but not
-- yet reconciled into provider_calls (issue 11: the budget counter counts calls made).
ALTER TABLE "runs" ADD COLUMN "reserved_calls" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "runs" ADD COLUMN "lease_holder" TEXT;
ALTER TABLE "runs" ADD COLUMN "lease_expires_at" TIMESTAMP(3);
