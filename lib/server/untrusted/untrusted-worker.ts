/**
 * The untrusted-content worker's entry (a worker_threads script, started by untrusted-pool.ts):
 * runs one task at a time (tasks.ts). Its memory is capped and its host terminates it past a
 * task's time limit, so no blueprint text can stall or exhaust the server's thread.
 */
import { parentPort } from 'node:worker_threads';
import { UNTRUSTED_TASKS, type TaskMessage, type WorkerAnswer } from './tasks';

const port = parentPort;
if (!port) throw new Error('untrusted-worker.ts runs as a worker thread (lib/server/untrusted/untrusted-pool.ts)');
const send = (m: WorkerAnswer) => port.postMessage(m);

port.on('message', (task: TaskMessage) => {
  try {
    const run = UNTRUSTED_TASKS[task.kind] as (input: TaskMessage['input']) => unknown;
    send({ type: 'done', id: task.id, output: run(task.input) });
  } catch (e) {
    send({ type: 'failed', id: task.id, message: e instanceof Error ? `${e.name}: ${e.message.slice(0, 300)}` : String(e).slice(0, 300) });
  }
});
send({ type: 'ready' });
