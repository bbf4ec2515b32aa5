-- Retrieval (issue 13): the placeholder `embedding_vectors` (per run, never used) becomes the
-- vector store `embeddings`, one row per (model, text hash), shared by every run (an embedding
-- is the same whichever run asked for it: the cache of lib/server/runs/embed-texts.ts).
-- No pgvector here: the server may not have it (this machine's PostgreSQL 15 does not).
-- lib/server/db/vectors.ts creates the extension at run time where it is available and casts
-- `vector` (real[]) to pgvector's type in its queries.
DROP TABLE "embedding_vectors";

CREATE TABLE "embeddings" (
    "model_id" TEXT NOT NULL,
    "text_hash" TEXT NOT NULL,
    "dims" INTEGER NOT NULL,
    "vector" REAL[],
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "embeddings_pkey" PRIMARY KEY ("model_id","text_hash")
);
