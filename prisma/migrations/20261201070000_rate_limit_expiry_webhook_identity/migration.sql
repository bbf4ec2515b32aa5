-- Rate-limit rows carry the end of their window, so expired rows of every key can be swept
-- (rotating client keys used to leave one row each, forever). Rows from before this
-- migration get "now" and are swept by the next hit.
ALTER TABLE "rate_limits" ADD COLUMN "expires_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP;
ALTER TABLE "rate_limits" ALTER COLUMN "expires_at" DROP DEFAULT;
CREATE INDEX "rate_limits_expires_at_idx" ON "rate_limits"("expires_at");

-- A webhook's identity is its signed payload too, not only the (unsigned) delivery id header.
ALTER TABLE "webhook_deliveries" ADD COLUMN "payload_sha256" TEXT;
CREATE UNIQUE INDEX "webhook_deliveries_payload_sha256_key" ON "webhook_deliveries"("payload_sha256");
