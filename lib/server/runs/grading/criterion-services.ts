/**
 * What a criterion point is graded with in a run (lib/core/criteria): the evidence of one reply
 * (its text, the citations read from it through the blueprint's `citations:` rule — from the
 * HTTP system's stored JSON body, or the plain reply — the case's `expect`) and the services
 * (the blueprint's `messages:`, its `corpus:` file read once per run, and a judge).
 *
 * THE SEAM for the judged kinds: `criterionServices(deps, ctx, { judge })` takes the JudgePort
 * that `criterionJudge` (criterion-judge.ts) builds; without one, the judged kinds give `error`
 * verdicts ("needs a judge"), never a 0.
 */
import { CorpusUnavailableError, extractCitations, parseCorpusJsonl, type CorpusPort, type CriterionEvidence, type CriterionServices, type JudgePort, type Prompt } from '@/lib/core';
import type { RunDeps } from '../engine/deps';
import type { StoredReply } from '../chat/generate';
import type { RunContext } from '../engine/run-context';

type CorpusLoad = { corpus: CorpusPort } | { error: string };

/** One corpus read per run context (the context is cached per run, so per run and process). */
const corpora = new WeakMap<RunContext, Promise<CorpusLoad | null>>();

function loadCorpus(deps: RunDeps, ctx: RunContext): Promise<CorpusLoad | null> {
  const config = ctx.blueprint.corpus;
  if (!config) return Promise.resolve(null);
  let hit = corpora.get(ctx);
  if (!hit) {
    hit = (async (): Promise<CorpusLoad> => {
      if (!deps.readBesideBlueprint) return { error: `the corpus file ${config.path} cannot be read here (this source has no file reader)` };
      let text: string;
      try {
        text = await deps.readBesideBlueprint(ctx.blueprintPath, config.path);
      } catch (e) {
        return { error: `the corpus file ${config.path} (beside ${ctx.blueprintPath}) cannot be read: ${e instanceof Error ? e.message : String(e)}` };
      }
      const parsed = parseCorpusJsonl(text, config.law_names);
      return parsed.ok ? { corpus: parsed.corpus } : { error: `the corpus file ${config.path}: ${parsed.message}` };
    })();
    corpora.set(ctx, hit);
  }
  return hit;
}

/** A corpus that could not be loaded: every lookup says why, through the kinds' own error path. */
function brokenCorpus(reason: string): CorpusPort {
  const fail = (): never => {
    throw new CorpusUnavailableError(reason);
  };
  return { has: fail, text: fail, ids: fail };
}

export async function criterionServices(deps: RunDeps, ctx: RunContext, opts: { judge?: JudgePort } = {}): Promise<CriterionServices> {
  const corpus = await loadCorpus(deps, ctx);
  return {
    messages: ctx.blueprint.messages,
    citationMatch: ctx.blueprint.citation_reading?.match ?? 'hierarchical',
    ...(corpus ? { corpus: 'corpus' in corpus ? corpus.corpus : brokenCorpus(corpus.error) } : {}),
    ...(opts.judge ? { judge: opts.judge } : {}),
  };
}

/** The evidence of one stored reply for its prompt's criteria (variants: added by the grading step in judge.ts, through `variantEvidence`). */
export function criterionEvidence(ctx: RunContext, reply: StoredReply, prompt: Prompt): Partial<CriterionEvidence> {
  const reading = ctx.blueprint.citation_reading;
  const citations = reading ? extractCitations({ text: reply.content, structured: reply.structured }, reading) : [];
  return {
    messages: reply.turns,
    reply: reply.content,
    citations,
    ...(reply.structured !== null && reply.structured !== undefined ? { structured: reply.structured } : {}),
    // A provider-marked refusal (replies.refusal): behaviour.expected reads it as `refuse` for certain.
    ...(reply.refusal ? { refusal: reply.refusal } : {}),
    promptId: prompt.id,
    variants: {},
    expect: prompt.expect,
  };
}
