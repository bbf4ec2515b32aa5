/**
 * The fake provider in its own process, as a provider is on its own machine: the bench's process
 * does only the work it measures. `port` 0 picks a free one (read back from what the fake prints).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fakeLlmAdmin, type FakeLlmAdmin } from '@/testing/fakes/llm-server-admin';

export async function startFakeProcess(opts: { port?: number; latencyMs?: number } = {}): Promise<{ url: string; admin: FakeLlmAdmin; stop: () => void }> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'testing/fakes/llm-server-main.ts'], {
    env: { ...process.env, PORT: String(opts.port ?? 0), FAKE_LLM_LATENCY_MS: String(opts.latencyMs ?? 0) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const origin = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      const m = /listening on (http:\/\/\S+)/.exec(d.toString());
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`fake LLM exited with ${code}`)));
  });
  return { url: `${origin}/v1`, admin: fakeLlmAdmin(origin), stop: () => child.kill('SIGTERM') };
}
