/**
 * The fake provider in its own process, as a provider is on its own machine: the bench's process
 * does only the work it measures. `port` 0 picks a free one (read back from what the fake prints).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fakeLlmAdmin, type FakeLlmAdmin } from '@/testing/fakes/llm-server-admin';

export interface FakeProcess {
  pid: number;
  /** The OpenAI-compatible base URL (`…/v1`). */
  url: string;
  admin: FakeLlmAdmin;
  stop(): void;
}

export async function startFakeProcess(opts: { port?: number; latencyMs?: number } = {}): Promise<FakeProcess> {
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
  return { pid: child.pid!, url: `${origin}/v1`, admin: fakeLlmAdmin(origin), stop: () => child.kill('SIGTERM') };
}

/** The fake with judges answering D or E with equal weight (a fixed distribution every bench can check). */
export async function startJudgedFake(latencyMs: number): Promise<FakeProcess> {
  const fake = await startFakeProcess({ latencyMs });
  await fake.admin.setRules([{ model: 'judge', judge: { labels: { D: 0.5, E: 0.5 } } }]);
  return fake;
}
