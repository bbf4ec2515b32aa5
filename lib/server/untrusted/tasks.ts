/**
 * What the untrusted-content worker (untrusted-worker.ts) can do: each task is a pure function
 * of plain data to plain data (both cross `postMessage` by structured clone). Kept apart from the
 * pool so the worker imports only the parsers, and the pool only these types.
 */
import { parseBlueprint, type ParseResult } from '@/lib/core';
import { redactSealedSource } from './sealed-source';

export type JsonParse = { ok: true; value: unknown } | { ok: false; message: string };

export interface UntrustedTasks {
  /** A blueprint or soev suite file's text → its parse result (the same parser as `assay validate`). */
  'parse-blueprint': { input: { text: string; file: string }; output: ParseResult };
  /** A JSON file's text (a model collection) → its value, or the parser's message. */
  'parse-json': { input: { text: string }; output: JsonParse };
  /** A stored blueprint's text → what its public source view shows (sealed-source.ts). */
  'redact-sealed-source': { input: { text: string; file: string }; output: string | null };
}

export type UntrustedTaskKind = keyof UntrustedTasks;

export const UNTRUSTED_TASKS: { [K in UntrustedTaskKind]: (input: UntrustedTasks[K]['input']) => UntrustedTasks[K]['output'] } = {
  'parse-blueprint': ({ text, file }) => parseBlueprint(text, { file }),
  'redact-sealed-source': ({ text, file }) => redactSealedSource(text, file),
  'parse-json': ({ text }) => {
    try {
      return { ok: true, value: JSON.parse(text) as unknown };
    } catch (e) {
      return { ok: false, message: (e as Error).message };
    }
  },
};

export type TaskMessage = { [K in UntrustedTaskKind]: { id: number; kind: K; input: UntrustedTasks[K]['input'] } }[UntrustedTaskKind];

export type WorkerAnswer = { type: 'ready' } | { type: 'done'; id: number; output: unknown } | { type: 'failed'; id: number; message: string };
