/**
 * Remote control of a fake LLM running in another process (Playwright's web server, the
 * standalone `npm run fake-llm`): the same setRules/setFaults/setServed/reset/stats over `/__fake/*`.
 * Rules travel as JSON: a RegExp pattern is sent as its `/source/flags` string.
 */
import type { BatchConfigInput, BatchStats, FakeBilling, FakeStats } from './llm-server';
import type { FaultConfig, RuleInput, ServedEntryInput } from './llm-server-rules';

export interface FakeLlmAdmin {
  setRules(rules: RuleInput[]): Promise<void>;
  setFaults(faults: FaultConfig | FaultConfig[] | null): Promise<void>;
  /** What models say they are (`model` field, `system_fingerprint`) from now on; null restores the defaults. */
  setServed(entries: ServedEntryInput[] | null): Promise<void>;
  /** How batches behave from now on (completion delay, failing lines); null restores the start options. */
  setBatch(config: BatchConfigInput | null): Promise<void>;
  reset(): Promise<void>;
  stats(): Promise<FakeStats>;
  /** The billing ledger, with the batch APIs' counters. */
  billing(): Promise<FakeBilling & { batches: BatchStats }>;
}

/** `origin` is the fake's scheme://host:port (a `/v1` base URL is accepted too). */
export function fakeLlmAdmin(origin: string): FakeLlmAdmin {
  const base = origin.replace(/\/v1\/?$/, '').replace(/\/$/, '');
  const call = async (method: 'GET' | 'POST', path: string, body?: unknown): Promise<unknown> => {
    const res = await fetch(`${base}/__fake/${path}`, {
      method,
      headers: { 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body, (_k, v: unknown) => (v instanceof RegExp ? String(v) : v)) }),
    });
    const json = (await res.json()) as unknown;
    if (!res.ok) throw new Error(`fake LLM ${path}: HTTP ${res.status}: ${JSON.stringify(json)}`);
    return json;
  };
  return {
    setRules: async (rules) => void (await call('POST', 'rules', rules)),
    setFaults: async (faults) => void (await call('POST', 'faults', faults)),
    setServed: async (entries) => void (await call('POST', 'served', entries)),
    setBatch: async (config) => void (await call('POST', 'batch', config)),
    reset: async () => void (await call('POST', 'reset', {})),
    billing: async () => (await call('GET', 'billing')) as FakeBilling & { batches: BatchStats },
    stats: async () => (await call('GET', 'stats')) as FakeStats,
  };
}
