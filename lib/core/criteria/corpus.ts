/**
 * soev's corpus lookup (CorpusLookupConfig): a JSONL file, one `{ "id": …, "text": … }` object a
 * line, read into the `CorpusPort` the corpus kinds use, with the other names of each law
 * (`law_names`: law id → names) turned around into name → law id. Pure: the caller reads the file.
 */
import { z } from 'zod';
import type { CorpusPort } from './types';

const UnitSchema = z.object({ id: z.union([z.string().min(1), z.number()]).transform(String), text: z.string().default('') }).loose();

export type CorpusParse = { ok: true; corpus: CorpusPort; units: number } | { ok: false; message: string };

export function parseCorpusJsonl(text: string, lawNames: Record<string, readonly string[]> = {}): CorpusParse {
  const units = new Map<string, string>();
  const lines = text.split(/\r?\n/);
  for (const [i, line] of lines.entries()) {
    if (line.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      return { ok: false, message: `line ${i + 1} is not JSON; each line is one {"id": …, "text": …} object` };
    }
    const unit = UnitSchema.safeParse(value);
    if (!unit.success) return { ok: false, message: `line ${i + 1}: ${unit.error.issues[0]?.path.join('.') || 'the line'}: ${unit.error.issues[0]?.message}; each line is one {"id": …, "text": …} object` };
    units.set(unit.data.id, unit.data.text);
  }
  const names: Record<string, string> = {};
  for (const [law, list] of Object.entries(lawNames)) for (const name of list) names[name] = law;
  const corpus: CorpusPort = { has: (id) => units.has(id), text: (id) => units.get(id), ids: () => units.keys(), lawNames: names };
  return { ok: true, corpus, units: units.size };
}

/**
 * Thrown by a `CorpusPort` whose file could not be read or parsed: the criterion that asked
 * gets an `error` verdict with the reason (judged kinds too, which otherwise let what they
 * throw stop the run), never a run that dies on its first nugget.
 */
export class CorpusUnavailableError extends Error {
  override readonly name = 'CorpusUnavailableError';
}
