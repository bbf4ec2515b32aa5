/**
 * The deterministic part of grading one point against one reply (what `assay check` calls):
 * function points through the registry (with `not_*` negation), `correct:` points through
 * the response view; text and question points need a judge and return `'needs-judge'`.
 * A function that throws or returns an error, or an unknown name, gives an `error` verdict.
 */
import type { Point } from '../blueprint/schema';
import { evaluateCorrect } from '../correct/evaluate';
import { buildResponseView, normaliseToolCall } from '../correct/view';
import { resolvePointFunction, type Resolution } from '../points/registry';
import { runPointFunction } from '../points/evaluate';
import type { PointContext, ToolCall } from '../points/types';
import { verdictFromOutcome, type Verdict } from './verdict';
import { evaluateCriterionPoint } from '../criteria/evaluate';
import type { CriterionEvidence, CriterionServices } from '../criteria/types';

export interface DeterministicContext extends PointContext {
  /** Index of the point in its prompt (stored on the verdict); default 0. */
  pointIndex?: number;
  /** The registry lookup (injectable for tests); default `resolvePointFunction`. */
  resolve?: (written: string) => Resolution;
  /**
   * For criterion points: what the run read beyond the reply text (citations, the structured
   * body, the case's expect, variants) and the services (judge, corpus, messages). Without it a
   * criterion sees the reply alone, and a kind that needs more says so (`not_applicable`/`error`).
   */
  criterion?: { evidence?: Partial<CriterionEvidence>; services?: CriterionServices };
}

/** The reply: its text, or its text with the provider's tool calls. */
export type ReplyInput = string | { content: string | null; toolCalls?: readonly unknown[] | null };

export async function evaluateDeterministicPoint(point: Point, response: ReplyInput, ctx: DeterministicContext = {}): Promise<Verdict | 'needs-judge'> {
  const index = ctx.pointIndex ?? 0;
  const reply = typeof response === 'string' ? { content: response, toolCalls: null } : response;
  const text = reply.content ?? '';

  switch (point.kind) {
    case 'text':
    case 'question':
      return 'needs-judge';

    case 'criterion': {
      const evidence: CriterionEvidence = {
        messages: ctx.messages ?? [],
        reply: text,
        citations: [],
        promptId: ctx.promptId ?? '',
        variants: {},
        expect: null,
        ...ctx.criterion?.evidence,
      };
      return evaluateCriterionPoint(point, index, evidence, ctx.criterion?.services ?? {});
    }

    case 'correct': {
      const view = buildResponseView({ content: reply.content, toolCalls: reply.toolCalls ?? ctx.toolCalls ?? null });
      const r = evaluateCorrect(point.check, view, ctx.sandbox ? { sandbox: ctx.sandbox } : {});
      const engine = r.regexEngine ? { regexEngine: r.regexEngine } : {};
      if (r.status === 'error') return verdictFromOutcome(point, index, { error: r.explanation, ...engine });
      return verdictFromOutcome(point, index, { score: r.status === 'pass', detail: r.explanation, ...engine });
    }

    case 'function': {
      const resolve = ctx.resolve ?? resolvePointFunction;
      const res = resolve(point.fn);
      if (!res.ok) {
        // Weval's wording, so a reader of either tool recognises it.
        const hint = res.suggestions.length > 0 ? ` (did you mean ${res.suggestions.map((s) => `$${s}`).join(', ')}?)` : '';
        return verdictFromOutcome(point, index, { error: `Unknown point function: '${point.fn}'${hint}` });
      }
      const toolCalls: ToolCall[] | undefined =
        ctx.toolCalls ?? (reply.toolCalls ? reply.toolCalls.map(normaliseToolCall).filter((c): c is ToolCall => c !== null) : undefined);
      const { pointIndex: _index, resolve: _resolve, ...pointCtx } = ctx;
      const fnCtx: PointContext = { ...pointCtx, ...(toolCalls ? { toolCalls } : {}) };
      const outcome = await runPointFunction(res, text, point.args, fnCtx);
      return verdictFromOutcome(point, index, outcome, { negated: res.negated });
    }
  }
}
