/**
 * The validation worker's entry (a worker_threads script): receives one file at a time,
 * answers its validation record. Its memory is capped and its host kills it past a time
 * limit (validate-in-worker.ts), so no input can stall or exhaust the server.
 */
import { parentPort } from 'node:worker_threads';
import { validateFile, type FileToValidate } from './validate-file';

parentPort?.on('message', (file: FileToValidate) => {
  parentPort!.postMessage(validateFile(file));
});
