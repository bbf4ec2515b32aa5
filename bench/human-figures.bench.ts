/**
 * What a recompute of the figures made from people's labels costs (lib/server/human/figures.ts
 * makes them again on every answer): the calibration figures of one blueprint (a panel of two
 * judges, α and κ with 1,000 bootstrap resamples each, the prediction-powered score of each
 * model over every judged verdict) and people's Bradley–Terry ranking (1,000 resamples), pure,
 * at growing numbers of labels. Synthetic, seeded inputs shaped as the queue stores them; the
 * median of BENCH_SAMPLES (default 5) after a warm-up.
 */
import { calibrationFigures, judgeScaleQuestion, pairwiseFigures, type LabelledVerdict, type PairPreference, type PopulationVerdict } from '@/lib/core';
import { reportFigure, reportTarget } from './targets';

const SAMPLES = Math.max(3, Number(process.env.BENCH_SAMPLES ?? 5));
const CLASSES = ['CLASS_ABSENT', 'CLASS_SLIGHTLY_PRESENT', 'CLASS_PARTIALLY_PRESENT', 'CLASS_MAJORLY_PRESENT', 'CLASS_FULLY_PRESENT'];
const MODELS = Array.from({ length: 8 }, (_v, i) => `openai:model-${i}`);

/** A small seeded generator: the inputs are the same on every run. */
function lcg(seed: number) {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

function distribution(rand: () => number): Record<string, number> {
  const centre = Math.floor(rand() * 5);
  const next = Math.min(4, centre + 1);
  return centre === next ? { [CLASSES[centre]!]: 1 } : { [CLASSES[centre]!]: 0.7, [CLASSES[next]!]: 0.3 };
}

function inputs(labelledItems: number, population: number) {
  const rand = lcg(labelledItems);
  const question = judgeScaleQuestion('The reply answers the question.');
  const pop: PopulationVerdict[] = Array.from({ length: population }, (_v, i) => ({ verdictId: `v${i}`, modelId: MODELS[i % MODELS.length]!, runId: 'run', score: rand() }));
  const labelled: LabelledVerdict[] = pop.slice(0, labelledItems).map((v, i) => ({
    verdictId: v.verdictId,
    modelId: v.modelId,
    runId: v.runId,
    question,
    panel: { distribution: distribution(rand) },
    judges: [
      { judge: 'openai:judge-a', distribution: distribution(rand) },
      { judge: 'openai:judge-b', distribution: distribution(rand) },
    ],
    inverted: false,
    inclusion: 0.2 + rand() * 0.8,
    labels: (i % 2 === 0 ? ['rita', 'ravi'] : ['rita']).map((reviewerId) => ({ reviewerId, answer: CLASSES[Math.floor(rand() * 5)]! })),
  }));
  const preferences: PairPreference[] = Array.from({ length: labelledItems }, () => {
    const a = Math.floor(rand() * MODELS.length);
    const b = (a + 1 + Math.floor(rand() * (MODELS.length - 1))) % MODELS.length;
    const u = rand();
    return { blueprintId: 'bp', modelA: MODELS[a]!, modelB: MODELS[b]!, preferred: u < 0.1 ? 'tie' : u < 0.55 + a * 0.03 ? MODELS[a]! : MODELS[b]!, reviewerId: 'rita' };
  });
  return { labelled, population: pop, preferences };
}

function median(fn: () => unknown): number {
  fn();
  const times: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const t = performance.now();
    fn();
    times.push(performance.now() - t);
  }
  times.sort((x, y) => x - y);
  return times[Math.floor(times.length / 2)]!;
}

export async function bench(): Promise<void> {
  for (const [labels, population] of [
    [100, 2_000],
    [1_000, 20_000],
    [5_000, 100_000],
  ] as const) {
    const { labelled, population: pop, preferences } = inputs(labels, population);
    const calibration = median(() => calibrationFigures({ blueprintId: 'bp', labelled, population: pop, seed: 1 }));
    const pairs = median(() => pairwiseFigures({ preferences, rubric: MODELS.map((m, i) => ({ modelId: m, score: 1 - i / 10 })), seed: 1 }));
    console.log(`${labels} labelled verdicts (${population} judged): calibration figures ${calibration.toFixed(0)} ms; ${labels} preferences over ${MODELS.length} models: ranking ${pairs.toFixed(0)} ms`);
    const note = `${labels} labelled of ${population} judged verdicts, ${labels} preferences, ${MODELS.length} models`;
    if (labels === 1_000) reportTarget({ name: 'human figures recompute (calibration + ranking), 1,000 labels', value: Math.round(calibration + pairs), unit: 'ms', atMost: 1_000, note });
    else reportFigure({ name: `human figures recompute, ${labels} labels`, value: Math.round(calibration + pairs), unit: 'ms', note });
  }
}
