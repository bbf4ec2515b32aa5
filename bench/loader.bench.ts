/**
 * The blueprint loader against a plain parse (issue 15): `parseBlueprint` over the 196-file
 * weval-configs corpus vs js-yaml's `loadAll` of the same texts (what Weval's parser spends
 * most of its time in: its whole parser costs ≈ 1.1× that plain parse). Also the exact path
 * alone (the `yaml` documents, what every file went through before the fast path, and what
 * the two corpus files with syntax errors still go through: their errors are `yaml`'s). The
 * three are measured interleaved, round after round in one process after a
 * warm-up, in CPU time (`process.cpuUsage`), so that a machine loaded by others skews them
 * alike; each ratio is the median of the per-round ratios. `BENCH_REPEAT` sets the rounds
 * (default 15).
 */
import { readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import jsyaml from 'js-yaml';
import { parseBlueprint, parseBlueprintExact } from '@/lib/core';
import { expandPaths } from '@/lib/cli/files';
import { benchSkipsWithoutCorpus, WEVAL_CORPUS } from '@/testing/outside-data';
import { reportFigure, reportTarget } from './targets';

export async function bench(): Promise<void> {
  if (benchSkipsWithoutCorpus('loader.bench.ts')) return;
  const CORPUS = join(WEVAL_CORPUS!, 'blueprints');
  const { files } = await expandPaths([CORPUS]);
  const corpus = await Promise.all(files.map(async (path) => ({ file: relative(CORPUS, path), text: await readFile(path, 'utf8') })));
  const rounds = Math.max(1, Number(process.env.BENCH_REPEAT ?? 15));

  const runs = {
    plain: () => {
      for (const b of corpus) {
        try {
          jsyaml.loadAll(b.text);
        } catch {
          // two corpus files are not YAML js-yaml reads; their failed parse is part of the plain parse's time
        }
      }
    },
    loader: () => {
      for (const b of corpus) parseBlueprint(b.text, { file: b.file });
    },
    exact: () => {
      for (const b of corpus) parseBlueprintExact(b.text, { file: b.file });
    },
  };
  for (const run of Object.values(runs)) run(); // warm-up: JIT, the registry's first use
  const ms: Record<keyof typeof runs, number[]> = { plain: [], loader: [], exact: [] };
  for (let r = 0; r < rounds; r++) {
    for (const [name, run] of Object.entries(runs) as [keyof typeof runs, () => void][]) ms[name].push(cpuMs(run));
  }
  const ratio = (name: keyof typeof runs) => median(ms[name].map((v, i) => v / ms.plain[i]!));
  console.log(`${corpus.length} blueprints; CPU ms per pass over the corpus, median of ${rounds} interleaved rounds after a warm-up`);
  console.log(`  js-yaml loadAll   ${median(ms.plain).toFixed(1)} ms`);
  const perRound = ms.loader.map((v, i) => v / ms.plain[i]!).sort((a, b) => a - b);
  console.log(`  parseBlueprint    ${median(ms.loader).toFixed(1)} ms  (${ratio('loader').toFixed(2)}× the plain parse; rounds ${perRound[0]!.toFixed(2)}–${perRound.at(-1)!.toFixed(2)}×)`);
  console.log(`  exact path only   ${median(ms.exact).toFixed(1)} ms  (${ratio('exact').toFixed(2)}× the plain parse)`);
  const note = `CPU time, median of ${rounds} interleaved rounds`;
  reportTarget({ name: 'loader vs plain js-yaml parse (196-file corpus)', value: ratio('loader'), unit: '×', atMost: 1.1, note });
  reportFigure({ name: 'exact (yaml documents) loader vs plain js-yaml parse', value: ratio('exact'), unit: '×', note: 'the loader before the fast path' });
}

function cpuMs(run: () => void): number {
  const start = process.cpuUsage();
  run();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}
