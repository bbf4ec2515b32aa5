-- Full-text search over replies and prompts (SPEC §8 "search across replies"), and the
-- indexes the reader pages need. Expression indexes: Prisma cannot express them, so they
-- live only here (see the note in schema.prisma). Queries must use the very same
-- expressions for the planner to pick these indexes (lib/server/db/queries/search.ts).
-- The 'simple' configuration: blueprints are written in many languages, so no stemming
-- or stop words of one language.

-- A reply's final text.
CREATE INDEX "replies_content_fts_idx" ON "replies" USING GIN (to_tsvector('simple', "content"));

-- A prompt's conversation: only the JSON string values (the turns' text and roles), not its keys.
CREATE INDEX "version_prompts_messages_fts_idx" ON "version_prompts" USING GIN (jsonb_to_tsvector('simple', "messages", '["string"]'));

-- Home page "recent runs" across every blueprint.
CREATE INDEX "runs_created_at_idx" ON "runs" ("created_at" DESC);
