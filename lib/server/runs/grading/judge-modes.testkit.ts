/**
 * Running one blueprint in both judging modes (per-point, batched) against the fake LLM and
 * comparing the stored verdicts: shared by the batched-judging db test and bench/judging.bench.ts.
 */
import { createHash } from 'node:crypto';
import {
  judgeOptions,
  judgeScaleQuestion,
  judgeStatement,
  modeAgreement,
  neutraliseDelimiters,
  parseBlueprint,
  type JudgeMode,
  type ModeAgreement,
  type ModeVerdict,
} from '@/lib/core';
import type { RuleInput } from '@/testing/fakes/llm-server';
import type { Db } from '../../db/client';
import type { RunDeps } from '../engine/deps';
import { executeRun } from '../engine/execute-run';
import { requestRun } from '../request-run';

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Deterministic, uneven probabilities over n options from a text (so each criterion gets its own answer). */
function distribution(seed: string, n: number): Record<string, number> {
  const bytes = createHash('sha256').update(seed).digest();
  const weights = Array.from({ length: n }, (_, i) => (bytes[i % bytes.length]! / 255) ** 3 + 0.01);
  const total = weights.reduce((s, w) => s + w, 0);
  return Object.fromEntries(weights.map((w, i) => [String.fromCharCode(65 + i), w / total]));
}

/**
 * One judge rule per judged point of the blueprint and judge model, matching that point's
 * per-point prompt (its `<QUESTION>` block), with its own distribution over the point's
 * options. The fake answers a batched prompt's questions with the same rules.
 */
export function judgeRulesFor(file: string, text: string, judgeModels: readonly string[]): RuleInput[] {
  const parsed = parseBlueprint(text, { file });
  if (!parsed.ok) throw new Error(`${file} does not parse: ${parsed.errors.map((e) => e.message).join('; ')}`);
  const rules: RuleInput[] = [];
  const seen = new Set<string>();
  for (const prompt of parsed.blueprint.prompts) {
    for (const point of prompt.points) {
      if (point.kind !== 'text' && point.kind !== 'question') continue;
      const question = point.kind === 'question' ? point.question : judgeScaleQuestion(point.text);
      const statement = neutraliseDelimiters(judgeStatement(question));
      for (const model of judgeModels) {
        const key = `${model}\u0000${statement}`;
        if (seen.has(key)) continue;
        seen.add(key);
        rules.push({
          model: `^${escape(model)}$`,
          lastUser: new RegExp(`<QUESTION>\\n${escape(statement)}\\n</QUESTION>`),
          judge: { labels: distribution(key, judgeOptions(question).length), reasoning: `Graded by ${model}.` },
        });
      }
    }
  }
  return rules;
}

/** A run of the blueprint in one judging mode through the real run path; returns the run id. */
export async function runInMode(db: Db, deps: RunDeps, blueprintId: string, opts: { models: string[]; judges: string[]; judgeMode: JudgeMode; judgeSamples?: number; maxPrompts?: number }): Promise<string> {
  const budget = opts.maxPrompts ? { budget: { maxPrompts: opts.maxPrompts } } : {};
  const { runId } = await requestRun(db, { blueprintId, trigger: 'cli', models: opts.models, judges: opts.judges, judgeMode: opts.judgeMode, ...budget }, { dispatch: async () => {} }, { judges: [], defaultCollection: 'CORE', judgeSamples: opts.judgeSamples ?? 3 });
  const status = await executeRun(deps, runId);
  if (status !== 'completed') throw new Error(`run ${runId} (${opts.judgeMode}) ended ${status}`);
  return runId;
}

/** The two runs' verdicts paired by reply cell and point (prompt, model, system, temperature, attempt, point). */
export async function verdictPairs(db: Db, runA: string, runB: string): Promise<[ModeVerdict & { key: string }, ModeVerdict & { key: string }][]> {
  const load = async (runId: string) => {
    const replies = new Map((await db.reply.findMany({ where: { runId }, select: { id: true, systemIndex: true, temperatureIndex: true, attempt: true } })).map((r) => [r.id, r]));
    const verdicts = await db.verdict.findMany({ where: { runId }, select: { replyId: true, promptKey: true, modelId: true, pointIndex: true, status: true, score: true } });
    return new Map(
      verdicts.map((v) => {
        const r = replies.get(v.replyId)!;
        const key = [v.promptKey, v.modelId, r.systemIndex, r.temperatureIndex, r.attempt, v.pointIndex].join('|');
        return [key, { key, status: v.status, score: v.score }];
      }),
    );
  };
  const [a, b] = await Promise.all([load(runA), load(runB)]);
  if (a.size !== b.size) throw new Error(`the runs stored ${a.size} and ${b.size} verdicts: they did not grade the same replies`);
  return [...a].map(([key, va]) => {
    const vb = b.get(key);
    if (!vb) throw new Error(`verdict ${key} is in run ${runA} but not in run ${runB}`);
    return [va, vb];
  });
}

export async function compareModes(db: Db, perPointRun: string, batchedRun: string): Promise<ModeAgreement> {
  return modeAgreement(await verdictPairs(db, perPointRun, batchedRun));
}
