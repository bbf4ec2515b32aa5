-- An HTTP system's reply body (custom mappings), kept for the criteria: a soev system's cited elements.
ALTER TABLE "replies" ADD COLUMN "structured" JSONB;
