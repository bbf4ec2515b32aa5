/**
 * Batched judging vs per-point judging (issue 15). Every example blueprint and four corpus
 * blueprints (two with more than 10 judged points in a prompt, so batches split) run through
 * the real run path (requestRun → executeRun → gateway → fake LLM → verdicts in PostgreSQL),
 * once per mode, with a judge that returns log-probabilities (OpenAI dialect) and one that does
 * not (Anthropic dialect: 3 samples). Figures:
 *  - judge calls per reply (that has judged points) per judge in each mode, counted by the
 *    fake's request log (an identical judge call finished earlier in the same run is a cache
 *    hit, so a figure can be a little under its count of points or samples);
 *  - agreement, verdict by verdict: share of identical status, mean |score difference|,
 *    Krippendorff's α (interval) with the modes as the two coders.
 * The fake answers each question of a batched prompt with the rule its per-point prompt
 * matches, so the agreement measures what Assay adds (prompting, reading, splitting, storing)
 * and not how a real judge's answers move when asked together: that needs real judges.
 * Runs on the PostgreSQL server at 127.0.0.1:5432, in a fresh database.
 */
import { readFile } from 'node:fs/promises';
import { modeAgreement, type ModeVerdict } from '@/lib/core';
import { startFakeLlm, type RuleInput } from '@/testing/fakes/llm-server';
import { freshDatabase } from '@/lib/server/db/db.testkit';
import { judgeRulesFor, runInMode, verdictPairs } from '@/lib/server/runs/grading/judge-modes.testkit';
import { fakeDeps, storeBlueprint } from '@/lib/server/runs/runs.testkit';
import { benchSkipsWithoutCorpus, corpusFile } from '@/testing/outside-data';
import { reportFigure } from './targets';

const EXAMPLES = new URL('../blueprints/examples/', import.meta.url);
const EXAMPLE_FILES = ['grounded-summary-questions.yml', 'medical-facts-weights.yml', 'multi-turn-support.yml', 'pasta-alternative-paths.yml', 'weather-tool-call.yml'];
/** Corpus blueprints; au-constitutive-act (16 judged points in one prompt) and refugee-convention (11) split into two calls. */
const CORPUS_FILES = ['test.yml', 'au-constitutive-act.yml', 'peru-maternal-child-health.yml', 'refugee-convention.yml'];
const MODELS = ['openai:sut-a', 'openai:sut-b'];
const PANELS = {
  logprobs: ['openai:judge-lp#prompt-aware'],
  samples: ['anthropic:judge-s#standard'],
} as const;

type Panel = keyof typeof PANELS;

export async function bench(): Promise<void> {
  if (benchSkipsWithoutCorpus('judging.bench.ts')) return;
  const files: { name: string; text: string }[] = [
    ...(await Promise.all(EXAMPLE_FILES.map(async (f) => ({ name: `examples/${f}`, text: await readFile(new URL(f, EXAMPLES), 'utf8') })))),
    ...CORPUS_FILES.map((f) => ({ name: `corpus/${f}`, text: corpusFile(`blueprints/${f}`) })),
  ];
  const rules: RuleInput[] = files.flatMap((f) => judgeRulesFor(f.name, f.text, ['judge-lp', 'judge-s']));
  const fake = await startFakeLlm({ rules, keepRequests: 1_000_000 });
  const t = await freshDatabase('postgres');
  try {
    const deps = await fakeDeps(t.db, fake.url, { concurrency: 16, gradingPool: null });
    const calls: Record<Panel, { perPoint: number; batched: number; replies: number; judged: number }> = {
      logprobs: { perPoint: 0, batched: 0, replies: 0, judged: 0 },
      samples: { perPoint: 0, batched: 0, replies: 0, judged: 0 },
    };
    const pairs: Record<Panel, [ModeVerdict, ModeVerdict][]> = { logprobs: [], samples: [] };
    const judgeCalls = () => fake.requests().filter((r) => r.request.model.includes('judge')).length;
    for (const file of files) {
      const { blueprintId } = await storeBlueprint(t.db, file.name, file.text);
      for (const panel of Object.keys(PANELS) as Panel[]) {
        const judges = [...PANELS[panel]];
        fake.reset();
        const perPoint = await runInMode(t.db, deps, blueprintId, { models: MODELS, judges, judgeMode: 'per-point' });
        const perPointCalls = judgeCalls();
        fake.reset();
        const batched = await runInMode(t.db, deps, blueprintId, { models: MODELS, judges, judgeMode: 'batched' });
        const batchedCalls = judgeCalls();
        // Per reply that has judged points (a reply with none needs no judge in either mode).
        const judgedRows = await t.db.verdict.findMany({ where: { runId: batched, kind: { in: ['text', 'question'] } }, select: { replyId: true } });
        const replies = new Set(judgedRows.map((v) => v.replyId)).size;
        const judged = judgedRows.length;
        const p = await verdictPairs(t.db, perPoint, batched);
        const a = modeAgreement(p);
        console.log(
          `[judging] ${file.name} (${panel}): ${replies} replies with judged points, ${judged} judged verdicts; judge calls per-point ${perPointCalls}, batched ${batchedCalls}; ` +
            `same status ${(a.sameStatus! * 100).toFixed(1)}% of ${a.n}, mean |Δscore| ${a.meanAbsScoreDiff?.toFixed(4) ?? '—'}, α ${a.alpha?.toFixed(4) ?? '—'}`,
        );
        calls[panel].perPoint += perPointCalls;
        calls[panel].batched += batchedCalls;
        calls[panel].replies += replies;
        calls[panel].judged += judged;
        pairs[panel].push(...p);
      }
    }
    for (const panel of Object.keys(PANELS) as Panel[]) {
      const c = calls[panel];
      const how = panel === 'logprobs' ? 'with log-probabilities' : 'without log-probabilities (3 samples)';
      const note = `${files.length} blueprints, ${c.replies} replies with judged points, ${(c.judged / c.replies).toFixed(2)} judged points each, 1 judge; fake's request log`;
      reportFigure({ name: `judge calls per reply per judge, per-point, ${how}`, value: c.perPoint / c.replies, unit: 'calls', note });
      reportFigure({ name: `judge calls per reply per judge, batched, ${how}`, value: c.batched / c.replies, unit: 'calls', note });
      const a = modeAgreement(pairs[panel]);
      const against = `${a.n} verdict pairs on the fake (it answers a batched question as its per-point prompt): checks Assay's side, not a real judge's`;
      reportFigure({ name: `batched vs per-point, ${how}: identical status`, value: (a.sameStatus ?? 0) * 100, unit: '%', note: against });
      reportFigure({ name: `batched vs per-point, ${how}: mean |score difference|`, value: a.meanAbsScoreDiff ?? Number.NaN, unit: '', note: `${a.scored} scored pairs` });
      reportFigure({ name: `batched vs per-point, ${how}: Krippendorff α`, value: a.alpha ?? Number.NaN, unit: '', note: 'interval metric, the two modes as coders' });
    }
  } finally {
    await fake.close();
    await t.close();
  }
}
