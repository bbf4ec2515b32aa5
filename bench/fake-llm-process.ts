/**
 * The fake LLM in its own process, as a provider is on its own machine: the process under
 * measurement does only its own work, and the fake's memory and CPU are not counted with it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fakeLlmAdmin, type FakeLlmAdmin } from '@/testing/fakes/llm-server-admin';

export interface FakeLlmProcess {
  pid: number;
  /** The OpenAI-compatible base URL (`…/v1`). */
  url: string;
  admin: FakeLlmAdmin;
  stop(): void;
}

/** Judges answer D or E with equal weight (a fixed distribution every bench can check). */
export async function startFakeLlmProcess(latencyMs: number): Promise<FakeLlmProcess> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'testing/fakes/llm-server-main.ts'], {
    env: { ...process.env, PORT: '0', FAKE_LLM_LATENCY_MS: String(latencyMs) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  // A free port, read back from what the fake prints.
  const origin = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      const m = /listening on (http:\/\/\S+)/.exec(d.toString());
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`fake LLM exited with ${code}`)));
  });
  const admin = fakeLlmAdmin(origin);
  await admin.setRules([{ model: 'judge', judge: { labels: { D: 0.5, E: 0.5 } } }]);
  return { pid: child.pid!, url: `${origin}/v1`, admin, stop: () => child.kill('SIGTERM') };
}
