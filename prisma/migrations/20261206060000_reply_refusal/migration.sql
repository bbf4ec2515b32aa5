-- A reply the provider itself marked as a refusal (OpenAI `message.refusal` or `content_filter`,
-- Anthropic `stop_reason: refusal`, a Gemini safety finish with text) keeps its text in `content`
-- and says which signal it was here; null for every other reply (and for replies stored before).
-- AlterTable
ALTER TABLE "replies" ADD COLUMN "refusal" TEXT;
