/**
 * The provider SDKs and Inngest are imported by the first call that needs them (lazy-module.ts),
 * not by importing the modules that may call them: `assay run --fixtures` calls no provider and
 * dispatches nothing to Inngest, and loaded ~1,200 files of them at start-up when they were
 * imported at the top of the adapters. A fresh process (this worker has them loaded already)
 * imports the `run` command and the adapters, makes a client of each, and a loader hook lists
 * every module it loads.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const WATCHED = ['openai', '@anthropic-ai/sdk', '@google/genai', 'inngest', '@inngest/ai'];

/** The package of a loaded module's URL among WATCHED, else null. */
function watchedPackage(url: string): string | null {
  return WATCHED.find((name) => url.includes(`/node_modules/${name}/`)) ?? null;
}

// Runs in the loader's own thread: every URL loaded (ESM, and the entry of each CommonJS package imported) to a file, synchronously.
const HOOK = `
import { appendFileSync } from 'node:fs';
let out;
export function initialize(data) { out = data.out; }
export async function load(url, context, next) { appendFileSync(out, url + '\\n'); return next(url, context); }
`;

const CHILD = (out: string) => `
import { appendFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';
import { pathToFileURL } from 'node:url';
register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(HOOK)}), pathToFileURL('./'), { data: { out: ${JSON.stringify(out)} } });
const required = () => Object.keys(createRequire(pathToFileURL('./')).cache);

await import('./lib/cli/commands/run.ts');
const providers = await import('./lib/server/providers/index.ts');
const embeddings = await import('./lib/server/providers/embeddings/index.ts');
const { inngestDispatcher } = await import('./lib/server/compose/run-deps.ts');
// Made, not called: a client is made for every model of a run, fixtures or not.
new providers.OpenAiCompatibleClient({ provider: 'openai', baseURL: 'http://127.0.0.1:9/v1', apiKey: 'k' });
new providers.AnthropicClient({ apiKey: 'k', baseURL: 'http://127.0.0.1:9' });
new providers.GoogleClient({ apiKey: 'k', baseURL: 'http://127.0.0.1:9' });
new embeddings.OpenAiEmbeddingClient({ provider: 'openai', model: 'text-embedding-3-small', baseURL: 'http://127.0.0.1:9/v1', apiKey: 'k' });
new embeddings.GeminiEmbeddingClient({ model: 'gemini-embedding-001', apiKey: 'k' });
inngestDispatcher();
appendFileSync(${JSON.stringify(out)}, required().map((f) => 'require:' + f + '\\n').join('') + '--- loaded on first use:\\n');

// The control: what a first call imports is seen by the same hook.
await (await import('./lib/server/providers/openai-compatible.ts')).openAiSdk();
await (await import('./lib/server/providers/anthropic.ts')).anthropicSdk();
await (await import('./lib/server/providers/google.ts')).geminiSdk();
await import('./lib/server/jobs/client.ts');
console.log('done');
`;

describe('the provider SDKs and Inngest, loaded on first use', () => {
  const dir = mkdtempSync(join(tmpdir(), 'assay-lazy-sdks-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('are not loaded by importing the run command and the adapters, nor by making their clients', async () => {
    const out = join(dir, 'loaded.txt');
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', CHILD(out)], {
      cwd: process.cwd(),
      timeout: 90_000,
      // the run command's modules read no configuration when imported; this keeps it so for the SDKs' own
      env: { ...process.env, OPENAI_API_KEY: '', ANTHROPIC_API_KEY: '' },
    });
    expect(stdout.trim()).toBe('done');
    const [before, after] = readFileSync(out, 'utf8').split('--- loaded on first use:\n') as [string, string];
    const packages = (text: string) => [...new Set(text.split('\n').map(watchedPackage).filter((p) => p !== null))].sort();
    // the hook saw the run command's own modules, so an empty list below means something
    expect(before).toMatch(/lib\/cli\/commands\/run\.ts/);
    expect(packages(before), 'loaded at import').toEqual([]);
    expect(packages(after), 'loaded on first use (the control)').toEqual(['@anthropic-ai/sdk', '@google/genai', '@inngest/ai', 'inngest', 'openai']);
  }, 120_000);
});
