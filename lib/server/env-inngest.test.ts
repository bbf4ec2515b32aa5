/**
 * Start-up refuses half an Inngest configuration and dev mode in production, naming the
 * variable to fix; it accepts a self-hosted server (INNGEST_BASE_URL) and a rotation's
 * fallback signing key. INNGEST_DEV is read as the SDK reads it (node_modules/inngest
 * components/Inngest.js `mode`: 1/true or a URL is dev mode, 0/false is not). docs/runs.md
 * ("Running on Inngest") lists the same variables and the serve route's settings.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EnvError, parseEnv } from './env';
import { INNGEST_ENV_FIELDS, INNGEST_VARIABLES, inngestDevMode } from './env-inngest';
import { inngestConfigured } from './compose/run-deps';

const KEYS = { INNGEST_EVENT_KEY: 'evt-key', INNGEST_SIGNING_KEY: 'signkey-prod-0123abcd' };

describe('the Inngest configuration at start', () => {
  it('accepts none of it (jobs in process), both keys, a self-hosted server and a fallback signing key', () => {
    expect(inngestConfigured(parseEnv({}))).toBe(false);
    expect(inngestConfigured(parseEnv(KEYS))).toBe(true);
    const selfHosted = parseEnv({ ...KEYS, INNGEST_BASE_URL: 'http://inngest.internal:8288', INNGEST_SIGNING_KEY_FALLBACK: 'signkey-prod-old' });
    expect(selfHosted.INNGEST_BASE_URL).toBe('http://inngest.internal:8288');
    expect(selfHosted.INNGEST_SIGNING_KEY_FALLBACK).toBe('signkey-prod-old');
  });

  it('refuses an event key without a signing key, and the reverse, naming the missing one', () => {
    expect(() => parseEnv({ INNGEST_EVENT_KEY: 'evt-key' })).toThrow(/INNGEST_SIGNING_KEY: is required with INNGEST_EVENT_KEY/);
    expect(() => parseEnv({ INNGEST_SIGNING_KEY: 'signkey-prod-1' })).toThrow(/INNGEST_EVENT_KEY: is required with INNGEST_SIGNING_KEY/);
    expect(() => parseEnv({ INNGEST_SIGNING_KEY_FALLBACK: 'old' })).toThrow(/INNGEST_SIGNING_KEY_FALLBACK: .*needs INNGEST_SIGNING_KEY/);
    expect(() => parseEnv({ INNGEST_BASE_URL: 'http://inngest.internal:8288' })).toThrow(/INNGEST_BASE_URL: .*needs INNGEST_EVENT_KEY and INNGEST_SIGNING_KEY/);
    expect(() => parseEnv({ ...KEYS, INNGEST_BASE_URL: 'inngest.internal' })).toThrow(/INNGEST_BASE_URL: must be the URL of your Inngest server/);
  });

  it('refuses INNGEST_DEV in production (it turns off the signature check) and anything the SDK would not read', () => {
    expect(() => parseEnv({ INNGEST_DEV: '1', NODE_ENV: 'production' })).toThrow(EnvError);
    expect(() => parseEnv({ INNGEST_DEV: 'http://localhost:8288', NODE_ENV: 'production' })).toThrow(/INNGEST_DEV: must not be set with NODE_ENV=production/);
    expect(() => parseEnv({ INNGEST_DEV: 'yes' })).toThrow(/INNGEST_DEV: must be 1/);
    // the dev server needs no keys; INNGEST_DEV=0 is production mode and needs both
    expect(inngestConfigured(parseEnv({ INNGEST_DEV: '1', NODE_ENV: 'development' }))).toBe(true);
    expect(inngestConfigured(parseEnv({ INNGEST_DEV: '0' }))).toBe(false);
    expect(inngestConfigured(parseEnv({ ...KEYS, INNGEST_DEV: '0', NODE_ENV: 'production' }))).toBe(true);
  });

  it('reads INNGEST_DEV as the SDK does', () => {
    expect(['1', 'true', 'TRUE', 'http://host.docker.internal:8288'].map(inngestDevMode)).toEqual([true, true, true, true]);
    expect(['0', 'false', undefined].map(inngestDevMode)).toEqual([false, false, false]);
  });
});

/** The rows of the configuration table under docs/runs.md's "Running on Inngest". */
function documentedVariables(): string[] {
  const doc = readFileSync('docs/runs.md', 'utf8');
  const section = doc.slice(doc.indexOf('## Running on Inngest'));
  const table = section.slice(section.indexOf('### Configuration'), section.indexOf('### The serve route'));
  return [...table.matchAll(/^\| `([A-Z_]+)` \|/gm)].map((m) => m[1]!);
}

describe('docs/runs.md against the start-up validation', () => {
  it('documents exactly the variables the validation accepts', () => {
    expect(documentedVariables().sort()).toEqual([...INNGEST_VARIABLES].sort());
    // and the validation's list is its schema's (NODE_ENV is only read, never set for Inngest)
    expect(Object.keys(INNGEST_ENV_FIELDS).filter((k) => k !== 'NODE_ENV').sort()).toEqual([...INNGEST_VARIABLES].sort());
  });

  it('names in its refusals only documented variables', () => {
    const bad = [{ INNGEST_EVENT_KEY: 'e' }, { INNGEST_SIGNING_KEY: 's' }, { INNGEST_SIGNING_KEY_FALLBACK: 'f' }, { INNGEST_BASE_URL: 'http://x' }, { INNGEST_DEV: '1', NODE_ENV: 'production' }, { INNGEST_DEV: 'maybe' }];
    const named = new Set<string>();
    for (const source of bad) {
      const message = (() => {
        try {
          parseEnv(source);
          return '';
        } catch (e) {
          return (e as Error).message;
        }
      })();
      expect(message).not.toBe('');
      for (const m of message.matchAll(/INNGEST_[A-Z_]+/g)) named.add(m[0]);
    }
    expect([...named].filter((v) => !documentedVariables().includes(v))).toEqual([]);
  });

  it('states the serve route’s maxDuration and streaming as the route sets them', () => {
    const route = readFileSync('app/api/inngest/route.ts', 'utf8');
    const doc = readFileSync('docs/runs.md', 'utf8');
    const maxDuration = /export const maxDuration = (\d+);/.exec(route)?.[1];
    expect(maxDuration).toBeDefined();
    expect(doc).toContain(`export const maxDuration = ${maxDuration}`);
    expect(route).toMatch(/streaming: true/);
    expect(doc).toContain('`streaming: true`');
  });
});
