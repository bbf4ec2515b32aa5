/**
 * The unit of work the Inngest fan-out hands to one function run: every generation of one
 * prompt × model (systems, temperatures, attempts), generated and judged, or for a rescore
 * the parent run's stored replies of that prompt × model, judged again. Idempotent like
 * every step: done cells are skipped.
 */
import { planGenerations } from '@/lib/core';
import type { RunDeps } from './deps';
import { findReply, generateCell, toStored } from './generate';
import { judgeReply } from './judge';
import type { RunContext } from './run-context';

export interface CellGroup {
  promptKey: string;
  modelId: string;
  /** The provider prefix (`openai`, `openrouter`…): the Inngest concurrency key. */
  provider: string;
}

export function providerOf(modelId: string): string {
  return modelId.includes(':') ? modelId.slice(0, modelId.indexOf(':')) : 'custom';
}

/** The prompt × model groups of a run that still have work. */
export async function pendingGroups(deps: RunDeps, ctx: RunContext): Promise<CellGroup[]> {
  const scored = await deps.db.attemptScore.groupBy({ by: ['promptKey', 'modelId'], where: { runId: ctx.runId }, _count: { _all: true } });
  const done = new Map(scored.map((s) => [`${s.promptKey}|${s.modelId}`, s._count._all]));
  const expected = new Map<string, CellGroup & { n: number }>();
  if (ctx.replySourceRunId !== ctx.runId) {
    const replies = await deps.db.reply.groupBy({ by: ['promptKey', 'modelId'], where: { runId: ctx.replySourceRunId }, _count: { _all: true } });
    for (const r of replies) if (ctx.prompts.has(r.promptKey)) expected.set(`${r.promptKey}|${r.modelId}`, { promptKey: r.promptKey, modelId: r.modelId, provider: providerOf(r.modelId), n: r._count._all });
  } else {
    for (const c of planGenerations(ctx.blueprint, ctx.settings)) {
      const k = `${c.promptKey}|${c.modelId}`;
      const g = expected.get(k) ?? { promptKey: c.promptKey, modelId: c.modelId, provider: providerOf(c.modelId), n: 0 };
      g.n++;
      expected.set(k, g);
    }
  }
  return [...expected.entries()].filter(([k, g]) => (done.get(k) ?? 0) < g.n).map(([, { promptKey, modelId, provider }]) => ({ promptKey, modelId, provider }));
}

/** Generates and judges (or, for a rescore, judges) every cell of one prompt × model. */
export async function processGroup(deps: RunDeps, ctx: RunContext, group: CellGroup): Promise<{ replies: number }> {
  if (ctx.replySourceRunId !== ctx.runId) {
    const replies = await deps.db.reply.findMany({
      where: { runId: ctx.replySourceRunId, promptKey: group.promptKey, modelId: group.modelId },
      select: { id: true, promptKey: true, modelId: true, content: true, toolCalls: true, turns: true, error: true },
    });
    await Promise.all(replies.map((r) => judgeReply(deps, ctx, toStored(r))));
    return { replies: replies.length };
  }
  const cells = planGenerations(ctx.blueprint, ctx.settings).filter((c) => c.promptKey === group.promptKey && c.modelId === group.modelId);
  await Promise.all(
    cells.map(async (cell) => {
      const reply = (await findReply(deps, ctx, cell)) ?? (await generateCell(deps, ctx, cell));
      await judgeReply(deps, ctx, reply);
    }),
  );
  return { replies: cells.length };
}
