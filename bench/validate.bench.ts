/**
 * How long loading blueprints takes: `parseBlueprint` over the whole weval-configs corpus
 * (what `assay validate`, a sync and a pull-request check do), after one warm-up pass so that
 * JIT compilation and the registry's first use are not counted. Reports the median of the
 * repetitions for the whole corpus, per-blueprint mean and p95, the slowest files, and MB/s.
 * `BENCH_REPEAT` sets the number of repetitions (default 7).
 */
import { readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { parseBlueprint } from '@/lib/core';
import { expandPaths } from '@/lib/cli/files';
import { benchSkipsWithoutCorpus, WEVAL_CORPUS } from '@/testing/outside-data';

interface Blueprint {
  file: string;
  text: string;
  bytes: number;
}

export async function bench(): Promise<void> {
  if (benchSkipsWithoutCorpus('validate.bench.ts')) return;
  const CORPUS = join(WEVAL_CORPUS!, 'blueprints');
  const { files } = await expandPaths([CORPUS]);
  const corpus: Blueprint[] = await Promise.all(
    files.map(async (path) => {
      const text = await readFile(path, 'utf8');
      return { file: relative(CORPUS, path), text, bytes: Buffer.byteLength(text) };
    }),
  );
  const repeat = Math.max(1, Number(process.env.BENCH_REPEAT ?? 7));
  const totalBytes = corpus.reduce((n, b) => n + b.bytes, 0);

  const valid = corpus.filter((b) => parseBlueprint(b.text, { file: b.file }).ok).length; // also the warm-up
  const perFile = corpus.map(() => [] as number[]);
  const totals: number[] = [];
  for (let r = 0; r < repeat; r++) {
    let total = 0;
    corpus.forEach((b, i) => {
      const start = performance.now();
      parseBlueprint(b.text, { file: b.file });
      const ms = performance.now() - start;
      perFile[i]!.push(ms);
      total += ms;
    });
    totals.push(total);
  }

  const total = median(totals);
  const each = perFile.map(median);
  const sorted = [...each].sort((a, b) => a - b);
  console.log(`${corpus.length} blueprints (${valid} valid), ${(totalBytes / 1e6).toFixed(2)} MB; median of ${repeat} repetitions after a warm-up`);
  console.log(`  whole corpus   ${ms(total)}  (min ${ms(Math.min(...totals))}, max ${ms(Math.max(...totals))})`);
  console.log(`  per blueprint  mean ${ms(mean(each))}, p95 ${ms(percentile(sorted, 0.95))}, max ${ms(sorted.at(-1) ?? 0)}`);
  console.log(`  throughput     ${(totalBytes / 1e6 / (total / 1000)).toFixed(2)} MB/s`);
  console.log('  slowest');
  for (const i of each.map((_, i) => i).sort((a, b) => each[b]! - each[a]!).slice(0, 5)) {
    console.log(`    ${ms(each[i]!).padStart(9)}  ${`${(corpus[i]!.bytes / 1024).toFixed(1)} KB`.padStart(9)}  ${corpus[i]!.file}`);
  }
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

function mean(values: number[]): number {
  return values.reduce((a, b) => a + b, 0) / values.length;
}

/** Nearest-rank percentile of an ascending list. */
function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)] ?? 0;
}

function ms(value: number): string {
  return `${value.toFixed(value < 10 ? 2 : 1)} ms`;
}
