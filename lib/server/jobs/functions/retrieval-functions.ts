/**
 * A retrieval run as Inngest functions: a thin scheduler over the retrieval steps
 * (runs/retrieval/steps.ts, the same the in-process runner drives), fanned out per model ×
 * batch of texts:
 *  - retrieval-start: the start step, then one event per pending batch (or per model left to
 *    score, on a resume after the last batch);
 *  - retrieval-batch: embeds one batch, keyed by the model's provider (env-scoped, so every
 *    worker shares a provider's limit); when it was the model's last, asks for its scoring;
 *  - retrieval-score: searches and scores one model; when nothing is left, asks for the finish;
 *  - retrieval-finish: the finish step.
 * A budget stop ends the slice cleanly and asks for the finish, which decides budget_exceeded.
 */
import { inngest } from '../client';
import { retrievalBatchRequested, retrievalFinishRequested, retrievalRequested, retrievalScoreRequested } from '../retrieval-events';
import type { RunDeps } from '../../runs/deps';
import { BudgetExceededError } from '../../runs/errors';
import { loadRetrievalContext } from '../../runs/retrieval/context';
import { embedBatch, finishRetrieval, isRetrievalSettled, pendingRetrieval, scoreModel, startRetrieval } from '../../runs/retrieval/steps';

type Exec = { runId: string; execution?: string };
const exec = (e: Exec) => `${e.runId}-${e.execution ?? 'first'}`;
const finishEvent = (e: Exec) => retrievalFinishRequested.create({ runId: e.runId, execution: e.execution }, { id: `retrieval-finish-${exec(e)}` });
const scoreEvent = (e: Exec, modelId: string) => retrievalScoreRequested.create({ runId: e.runId, modelId, execution: e.execution }, { id: `retrieval-score-${exec(e)}-${modelId}` });

/** The event run-start sends when the run it was asked to start is a retrieval run. */
export function retrievalExecutionEvent(runId: string, execution?: string) {
  return retrievalRequested.create({ runId, execution }, { id: `retrieval-${exec({ runId, execution })}` });
}

export function retrievalFunctions(deps: () => Promise<RunDeps>, opts: { providerConcurrency: number }) {
  const onFailure = async ({ event, error, step }: { event: { data: { event: unknown } }; error: Error; step: { run: (id: string, fn: () => Promise<void>) => Promise<unknown>; sendEvent: (id: string, e: ReturnType<typeof finishEvent>) => Promise<unknown> } }) => {
    const slice = (event.data.event as { data: Exec & { modelId?: string } }).data;
    await step.run(`record-failure:${slice.runId}:${slice.modelId ?? ''}`, async () => {
      const d = await deps();
      await d.db.run.update({ where: { id: slice.runId }, data: { error: `${slice.modelId ?? 'a step'} failed after its retries: ${error.message}` } });
    });
    await step.sendEvent('finish-after-failure', finishEvent(slice));
  };

  const startFn = inngest.createFunction({ id: 'retrieval-start', triggers: [retrievalRequested] }, async ({ event, step }) => {
    const e = event.data as Exec;
    const pending = await step.run(`plan:${e.runId}`, async () => {
      const d = await deps();
      if (await isRetrievalSettled(d, e.runId)) return null;
      return pendingRetrieval(d, await startRetrieval(d, e.runId));
    });
    if (pending === null) return { runId: e.runId, settled: true };
    if (pending.embed.length === 0 && pending.score.length === 0) {
      await step.sendEvent('nothing-to-do', finishEvent(e));
      return { runId: e.runId, units: 0 };
    }
    await step.sendEvent('fan-out', [
      ...pending.embed.map((u) =>
        retrievalBatchRequested.create({ runId: e.runId, modelId: u.modelId, kind: u.kind, batchIndex: u.batchIndex, provider: u.provider, execution: e.execution }, { id: `retrieval-batch-${exec(e)}-${u.modelId}-${u.kind}-${u.batchIndex}` }),
      ),
      ...pending.score.map((m) => scoreEvent(e, m)),
    ]);
    return { runId: e.runId, units: pending.embed.length + pending.score.length };
  });

  const batchFn = inngest.createFunction(
    { id: 'retrieval-batch', triggers: [retrievalBatchRequested], concurrency: [{ key: 'event.data.provider', limit: opts.providerConcurrency, scope: 'env' }], retries: 5, onFailure },
    async ({ event, step }) => {
      const u = event.data as Exec & { modelId: string; kind: 'document' | 'query'; batchIndex: number };
      const id = `${u.runId}:${u.modelId}:${u.kind}:${u.batchIndex}`;
      const outcome = await step.run(`embed:${id}`, async () => {
        const d = await deps();
        try {
          return { status: 'done' as const, ...(await embedBatch(d, await loadRetrievalContext(d.db, u.runId), u)) };
        } catch (e) {
          if (e instanceof BudgetExceededError) return { status: 'budget' as const, texts: 0, calls: 0 };
          throw e;
        }
      });
      if (outcome.status === 'budget') {
        await step.sendEvent('budget-stop', finishEvent(u));
        return outcome;
      }
      const left = await step.run(`left:${id}`, async () => {
        const d = await deps();
        const p = await pendingRetrieval(d, await loadRetrievalContext(d.db, u.runId));
        return { modelEmbedded: !p.embed.some((w) => w.modelId === u.modelId), modelToScore: p.score.includes(u.modelId), total: p.embed.length + p.score.length };
      });
      // the model's last batch asks for its scoring (the event id deduplicates concurrent last
      // batches); a model that failed leaves nothing to score, and the run may have nothing left
      if (left.modelEmbedded && left.modelToScore) await step.sendEvent('model-embedded', scoreEvent(u, u.modelId));
      else if (left.total === 0) await step.sendEvent('all-done', finishEvent(u));
      return outcome;
    },
  );

  const scoreFn = inngest.createFunction({ id: 'retrieval-score', triggers: [retrievalScoreRequested], retries: 5, onFailure }, async ({ event, step }) => {
    const m = event.data as Exec & { modelId: string };
    const outcome = await step.run(`score:${m.runId}:${m.modelId}`, async () => {
      const d = await deps();
      return scoreModel(d, await loadRetrievalContext(d.db, m.runId), m.modelId);
    });
    const remaining = await step.run(`remaining:${m.runId}:${m.modelId}`, async () => {
      const d = await deps();
      const p = await pendingRetrieval(d, await loadRetrievalContext(d.db, m.runId));
      return p.embed.length + p.score.length;
    });
    if (remaining === 0) await step.sendEvent('all-done', finishEvent(m));
    return { ...outcome, remaining };
  });

  const finishFn = inngest.createFunction({ id: 'retrieval-finish', triggers: [retrievalFinishRequested] }, async ({ event, step }) => {
    const { runId } = event.data as Exec;
    return step.run(`finish:${runId}`, async () => ({ runId, status: await finishRetrieval(await deps(), runId) }));
  });

  return [startFn, batchFn, scoreFn, finishFn] as const;
}
