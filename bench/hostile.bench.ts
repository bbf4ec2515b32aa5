/**
 * What hostile and oversized blueprints cost the loader now that it has limits (issue 11):
 * the red-team pass's files (the 469- and 631-byte alias bombs, 10,000-deep JSON, 200,000
 * points, 200,000 documents, 50 MB) and the most expensive shapes that stay within the limits.
 * Each is loaded once cold and timed, with the heap growth; on the code before the limits the
 * bombs ran past 60 s (755 MB and growing) and deep JSON and 200,000 points overflowed the stack.
 */
import { hostileBlueprints as h, parseBlueprint } from '@/lib/core';

const CASES: Record<string, () => { text: string; file: string }> = {
  'alias bomb (469 B)': () => ({ text: h.ALIAS_BOMB_469, file: 'b.yml' }),
  'merge bomb (631 B)': () => ({ text: h.MERGE_BOMB_631, file: 'b.yml' }),
  '10,000-deep JSON': () => ({ text: h.deepJson(10_000), file: 'b.json' }),
  '10,000-deep YAML': () => ({ text: h.deepYaml(10_000), file: 'b.yml' }),
  '200,000 points': () => ({ text: h.manyPoints(200_000), file: 'b.yml' }),
  '200,000 documents': () => ({ text: h.manyDocuments(200_000), file: 'b.yml' }),
  '50 MB': () => ({ text: `title: big\ndescription: "${'x'.repeat(50 * 1024 * 1024)}"\n`, file: 'b.yml' }),
  'within: 2,000 prompts x 40 points': () => ({ text: 'prompts:\n' + Array.from({ length: 2_000 }, (_, i) => `  - prompt: p${i}\n    should: [${Array(40).fill('x').join(',')}]\n`).join(''), file: 'b.yml' }),
  'within: 20,000 broken definitions': () => ({ text: 'point_defs:\n' + Array.from({ length: 20_000 }, (_, i) => `  d${i}: {$nofn: x}\n`).join('') + 'prompts:\n  - prompt: hi\n', file: 'b.yml' }),
  'within: 40,000 unknown header keys': () => ({ text: Array.from({ length: 40_000 }, (_, i) => `k${i}: 1\n`).join('') + 'prompts:\n  - prompt: hi\n', file: 'b.yml' }),
  'within: 500 points x 1 prompt, 1 MiB': () => ({ text: 'prompts:\n  - prompt: hi\n    should:\n' + `      - "${'y'.repeat(2_000)}"\n`.repeat(500), file: 'b.yml' }),
};

export async function bench(): Promise<void> {
  for (const [name, make] of Object.entries(CASES)) {
    const { text, file } = make();
    const heap = process.memoryUsage().heapUsed;
    const cpu = process.cpuUsage();
    const t0 = performance.now();
    const r = parseBlueprint(text, { file });
    const ms = performance.now() - t0;
    const used = process.cpuUsage(cpu);
    const outcome = r.ok ? `ok, ${r.blueprint.prompts.length} prompts` : `${r.errors[0]!.line}:${r.errors[0]!.col} ${r.errors[0]!.message.slice(0, 70)}`;
    console.log(`${name.padEnd(38)} ${(text.length / 1024).toFixed(0).padStart(7)} KB ${ms.toFixed(0).padStart(6)} ms (${((used.user + used.system) / 1000).toFixed(0)} ms CPU) heap +${((process.memoryUsage().heapUsed - heap) / 1e6).toFixed(0)} MB  ${outcome}`);
  }
}
