/** The embedding client port and its adapters: the only import path for the rest of the server. */
export type { EmbeddingClient, EmbeddingKind, EmbeddingRequest, EmbeddingResponse } from './types';
export { resolveEmbeddingClient } from './resolve';
export { OpenAiEmbeddingClient, OPENAI_MAX_BATCH, decodeEmbedding } from './openai-embeddings';
export { GeminiEmbeddingClient, GEMINI_MAX_BATCH } from './gemini-embeddings';
export { createCustomEmbeddingClient, CUSTOM_DEFAULT_MAX_BATCH } from './custom-embeddings';
export { EMBEDDING_PRICES_PER_MTOK, embeddingPriceFor, embeddingCostUsd } from './prices';
