/**
 * APPROXIMATE list prices of embedding models in USD per 1M input tokens, as published by the
 * providers in 2025 (embeddings have no output tokens). Matched as prefixes of the model name,
 * longest first, like the chat table in ../cost.ts; unknown models cost null, not 0.
 */
export const EMBEDDING_PRICES_PER_MTOK: Readonly<Record<string, number>> = {
  'text-embedding-3-small': 0.02,
  'text-embedding-3-large': 0.13,
  'text-embedding-ada-002': 0.1,
  'gemini-embedding-001': 0.15,
  'text-embedding-004': 0,
  'BAAI/bge-base-en-v1.5': 0.008,
  'BAAI/bge-large-en-v1.5': 0.016,
  'togethercomputer/m2-bert-80M-8k-retrieval': 0.008,
  'nomic-embed-text': 0,
  // the fake provider's models (testing/fakes/llm-server-embeddings.ts): a price so cost is exercised
  'fake-embed-large': 0.1,
  'fake-embed-small': 0.02,
};

const KEYS_LONGEST_FIRST = Object.keys(EMBEDDING_PRICES_PER_MTOK).sort((a, b) => b.length - a.length);

/** The price per 1M input tokens of an embedding model; vendor paths (`BAAI/…`) are kept, OpenRouter's `openai/` is not. */
export function embeddingPriceFor(model: string): number | null {
  const name = model.toLowerCase();
  const key =
    KEYS_LONGEST_FIRST.find((k) => name.startsWith(k.toLowerCase())) ??
    KEYS_LONGEST_FIRST.find((k) => name.slice(name.lastIndexOf('/') + 1).startsWith(k.toLowerCase()));
  return key === undefined ? null : EMBEDDING_PRICES_PER_MTOK[key]!;
}

export function embeddingCostUsd(model: string, usage: { promptTokens: number } | null): number | null {
  const price = usage ? embeddingPriceFor(model) : null;
  return price === null || !usage ? null : (usage.promptTokens * price) / 1_000_000;
}
