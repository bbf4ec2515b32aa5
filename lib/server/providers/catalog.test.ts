/**
 * One record per provider (catalog.ts): every record is complete and sane, the tables other
 * modules export are read from the records, the adapters and the embeddings resolver obey the
 * records' flags, and docs/runs.md ("Concurrency") still shows the records' maxima.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BATCH_PROVIDERS } from './batch-types';
import { FALLBACK_CONCURRENCY, FALLBACK_TIMEOUT_MS, HTTP_MODEL_PROVIDER, isProviderName, PROVIDER_LIMITS, PROVIDER_NAMES, PROVIDERS, providerLimits, providerOfModel, speaksBatch, type ProviderEntry } from './catalog';
import { PROVIDER_CONCURRENCY, providerConcurrency } from './concurrency';
import { CUSTOM_PROVIDER } from './custom-http';
import { resolveEmbeddingClient } from './embeddings/resolve';
import { resolveModel } from './resolve';
import { modelTimeoutMs, PROVIDER_TIMEOUTS_MS, providerTimeoutMs } from './timeouts';

const records: [string, ProviderEntry][] = Object.entries(PROVIDERS);
/** Nothing listens here, and nothing is called: the adapters are only built. */
const OFFLINE = { keys: {}, baseUrlOverride: 'http://127.0.0.1:9/v1' };

describe('the provider records', () => {
  it.each(records)('%s is complete and sane', (name, entry) => {
    expect(['openai', 'anthropic', 'google']).toContain(entry.api);
    expect(() => new URL(entry.baseUrl), entry.baseUrl).not.toThrow();
    expect(entry.keyEnv).toMatch(/^[A-Z]+_API_KEY$/);
    expect(typeof entry.keyRequired).toBe('boolean');
    // A local server (no key needed) can be moved, and only a local server.
    if (entry.keyRequired) expect(entry.baseUrlEnv).toBeUndefined();
    else expect(entry.baseUrlEnv).toMatch(/^[A-Z]+_BASE_URL$/);
    expect(Number.isInteger(entry.concurrency) && entry.concurrency >= 1, String(entry.concurrency)).toBe(true);
    expect(Number.isInteger(entry.timeoutMs) && entry.timeoutMs > 0, String(entry.timeoutMs)).toBe(true);
    expect(typeof entry.batch).toBe('boolean');
    expect(typeof entry.embeddings).toBe('boolean');
    expect(entry.why.trim()).not.toBe('');
    // Batch adapters exist for the OpenAI and Anthropic APIs only (openai-batch.ts, anthropic-batch.ts).
    if (entry.batch) expect(['openai', 'anthropic']).toContain(entry.api);
  });

  it('marks the providers without an embeddings API, and the batch APIs Assay speaks', () => {
    expect(PROVIDERS.anthropic.embeddings).toBe(false);
    expect(PROVIDERS.groq.embeddings).toBe(false);
    expect(PROVIDER_NAMES.filter(speaksBatch).sort()).toEqual(['anthropic', 'openai']);
  });

  it('keeps the HTTP model apart from the model-id prefixes, with its own limits, and the fallbacks', () => {
    expect(CUSTOM_PROVIDER).toBe(HTTP_MODEL_PROVIDER.name);
    expect(PROVIDER_NAMES).not.toContain(HTTP_MODEL_PROVIDER.name);
    expect(isProviderName(HTTP_MODEL_PROVIDER.name)).toBe(false);
    expect(speaksBatch(HTTP_MODEL_PROVIDER.name)).toBe(false);
    expect([HTTP_MODEL_PROVIDER.concurrency, HTTP_MODEL_PROVIDER.timeoutMs]).toEqual([4, 30_000]);
    expect(HTTP_MODEL_PROVIDER.why.trim()).not.toBe('');
    expect([FALLBACK_CONCURRENCY, FALLBACK_TIMEOUT_MS]).toEqual([10, 60_000]);
  });
});

describe('the tables read from the records', () => {
  it('PROVIDER_CONCURRENCY, PROVIDER_TIMEOUTS_MS and BATCH_PROVIDERS are the records', () => {
    const all = [...records, [HTTP_MODEL_PROVIDER.name, HTTP_MODEL_PROVIDER] as const];
    expect(PROVIDER_LIMITS.map(([name]) => name)).toEqual(all.map(([name]) => name));
    expect(PROVIDER_CONCURRENCY).toEqual(Object.fromEntries(all.map(([name, r]) => [name, r.concurrency])));
    expect(PROVIDER_TIMEOUTS_MS).toEqual(Object.fromEntries(all.map(([name, r]) => [name, r.timeoutMs])));
    expect([...BATCH_PROVIDERS].sort()).toEqual(records.filter(([, r]) => r.batch).map(([name]) => name).sort());
  });

  it('gives each provider its record’s limits, and a name without one the fallbacks', () => {
    for (const [name, limits] of PROVIDER_LIMITS) {
      expect(providerLimits(name)).toBe(limits);
      expect(providerConcurrency(name)).toBe(limits.concurrency);
      expect(providerConcurrency(name, 3)).toBe(3);
      expect(providerTimeoutMs(name)).toBe(limits.timeoutMs);
      expect(modelTimeoutMs(name, 'plain-model')).toBe(limits.timeoutMs);
    }
    // Names an object inherits are not providers either.
    for (const name of ['mistral', 'constructor', 'toString', '__proto__']) {
      expect(providerLimits(name), name).toBeUndefined();
      expect(providerConcurrency(name), name).toBe(FALLBACK_CONCURRENCY);
      expect(providerTimeoutMs(name), name).toBe(FALLBACK_TIMEOUT_MS);
    }
  });
});

describe('the adapters obey the records', () => {
  it.each(records)('%s has a batch API exactly when its record says so', (name, entry) => {
    const { client } = resolveModel(`${name}:some-model`, OFFLINE);
    expect(client.batch !== undefined).toBe(entry.batch);
  });

  it.each(records)('%s resolves an embedding model exactly when its record says it has embeddings', (name, entry) => {
    const resolve = () => resolveEmbeddingClient(`${name}:some-embedding-model`, OFFLINE);
    if (entry.embeddings) expect(resolve).not.toThrow();
    else expect(resolve).toThrow(`${name} offers no embeddings API`);
  });
});

/** The rows of the table under docs/runs.md's "Concurrency", as provider name → maximum. */
function documentedConcurrency(): Record<string, number> {
  const doc = readFileSync('docs/runs.md', 'utf8');
  const section = doc.slice(doc.indexOf('## Concurrency'));
  const table = section.slice(0, section.indexOf('\n## ', 1));
  const rows: Record<string, number> = {};
  for (const [, names, max] of table.matchAll(/^\| ([^|]+?) \| (\d+) \|/gm)) {
    for (const name of names!.split(', ')) rows[name.replace(/ \(HTTP model\)$/, '')] = Number(max);
  }
  return rows;
}

describe('docs/runs.md against the records', () => {
  it('shows every provider’s maximum in flight, the HTTP model’s and the fallback', () => {
    expect(documentedConcurrency()).toEqual({ ...PROVIDER_CONCURRENCY, 'any other': FALLBACK_CONCURRENCY });
  });
});

describe('the provider a model id names', () => {
  it('is its prefix, up to the first colon; a model without one is an HTTP model', () => {
    expect(providerOfModel('openai:gpt-4o-mini')).toBe('openai');
    expect(providerOfModel('openrouter:meta-llama/llama-3.1-70b-instruct')).toBe('openrouter');
    expect(providerOfModel('ollama:llama3:8b')).toBe('ollama');
    expect(providerOfModel('my-bot')).toBe(HTTP_MODEL_PROVIDER.name);
  });
});
