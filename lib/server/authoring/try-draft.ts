/**
 * Use case: "try it" (docs/authoring.md, "Try it"). A signed-in author runs the draft in the editor
 * on a few of the models maintainers allow, within the author's budget for the day. The draft is
 * parsed by the same parser as `assay validate` (an invalid draft is a 400 naming file:line:col,
 * and nothing is stored); a valid one is stored as a hidden version of the author's own draft
 * blueprint (`drafts/<login>/<file>`, never listed) and run through the normal pipeline (requestRun
 * and its dispatcher, the same job code as `assay run`), marked as a draft run: never published to
 * a leaderboard, seen only by its author and maintainers.
 *
 * The budget is enforced where calls are made (the gateway's reservation, author-budget.ts);
 * here a run is refused up front when the day is used up, or when what is left cannot even pay
 * for the draft's generations, so the author is told before anything starts.
 */
import { formatIssue, planGenerations, blueprintIdFromPath } from '@/lib/core';
import type { Db } from '../db/client';
import { storeBlueprintVersion } from '../db/commands/store-blueprint-version';
import { storableText } from '../db/storable-text';
import { AppError, BadRequestError, UnauthorizedError } from '../http/errors';
import { enforceRateLimit } from '../auth/rate-limit';
import type { Principal } from '../auth/principal';
import type { RunPorts } from '../runs/contracts';
import { DRAFTS_SOURCE_KEY } from '../runs/draft-visibility';
import { authorDay, budgetResetsAt, budgetSentence, dayUsedUp } from '../runs/calls/author-budget';
import { readTrySettings, type TryItSettings } from './try-settings';
import { parseBlueprintBounded } from '../untrusted/parse-bounded';

export interface TryRequest {
  yaml: string;
  /** The draft's path (its issues name this file). */
  name: string;
  models: string[];
}

export interface TryAllowance {
  models: string[];
  dailyCalls: number;
  dailyCostUsd: number;
  usedCalls: number;
  usedCostUsd: number;
  resetsAt: Date;
}

const plural = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;

/** 429: the author's try-it budget for today cannot pay for this run; the message says what was used and when it renews. */
export class TryBudgetError extends AppError {
  override name = 'TryBudgetError';
  constructor(message: string) {
    super('try_budget_used', 429, message);
  }
}


export interface TryDeps {
  db: Db;
  runs: RunPorts;
  /** The environment's defaults, written to the settings row on first use. */
  defaults: TryItSettings;
  /** The platform's judge panel: a draft cannot name its own (it would spend on any model). */
  judges: string[];
  now?: () => Date;
}

function signedInAuthor(p: Principal | null): { id: string; githubLogin: string } {
  if (!p) throw new UnauthorizedError('Sign in with GitHub to try a draft: its runs are counted against your own daily budget.');
  if (p.kind !== 'user') throw new BadRequestError('Try it runs a draft for a signed-in author; the admin token has no author budget. Sign in with GitHub.');
  return p.user;
}

/** What the author may still spend today, and on which models. */
export async function tryAllowance(deps: Pick<TryDeps, 'db' | 'defaults' | 'now'>, principal: Principal | null): Promise<TryAllowance> {
  const author = signedInAuthor(principal);
  const now = deps.now?.() ?? new Date();
  const [settings, used] = await Promise.all([readTrySettings(deps.db, deps.defaults), authorDay(deps.db, author.id, now)]);
  return { models: settings.models, dailyCalls: settings.dailyCalls, dailyCostUsd: settings.dailyCostUsd, usedCalls: used.calls, usedCostUsd: used.costUsd, resetsAt: budgetResetsAt(now) };
}

/** `blueprints/x/my-draft.yml` of octocat → `drafts__octocat__x__my-draft`: one draft blueprint per author and file. */
export function draftBlueprintId(login: string, name: string): string {
  const path = name.replace(/^\/+/, '').replace(/^blueprints\//, '');
  return blueprintIdFromPath(`drafts/${login.toLowerCase()}/${path}`);
}

export async function tryDraft(deps: TryDeps, principal: Principal | null, request: TryRequest): Promise<{ runId: string; plannedCalls: number }> {
  const author = signedInAuthor(principal);
  // the name becomes the stored blueprint's path: a NUL or half a surrogate pair in it would fail the INSERT (the text itself is checked by the parser)
  const req = { ...request, name: storableText(request.name) };
  const { db } = deps;
  const now = deps.now?.() ?? new Date();
  const settings = await readTrySettings(db, deps.defaults);
  await enforceRateLimit(db, `try:${author.id}`, { limit: settings.runsPerHour, windowSeconds: 3600 }, now);

  // in the untrusted-work pool: the draft's patterns must not hold the thread that answers every request
  const parsed = await parseBlueprintBounded(req.yaml, { file: req.name });
  if (!parsed.ok) {
    const first = parsed.errors[0]!;
    throw new BadRequestError(`The draft does not validate (${parsed.errors.length} error${parsed.errors.length === 1 ? '' : 's'}): ${formatIssue(first).split('\n')[0]}`, { issues: parsed.errors });
  }
  if (parsed.blueprint.retrieval) throw new BadRequestError('Try it runs chat blueprints; a retrieval blueprint runs with `assay run` (its embeddings are not counted in the try-it budget).');
  const models = [...new Set(req.models)];
  const notAllowed = models.filter((m) => !settings.models.includes(m));
  if (notAllowed.length) throw new BadRequestError(`Not on the try-it list: ${notAllowed.join(', ')}. Pick from ${settings.models.join(', ')} (maintainers set the list on /admin).`);

  const planned = planGenerations(parsed.blueprint, { models, repeats: null, maxPrompts: null }).length;
  const used = await authorDay(db, author.id, now);
  if (dayUsedUp(used, settings)) throw new TryBudgetError(budgetSentence(used, settings, now));
  const left = settings.dailyCalls - used.calls;
  if (planned > left) {
    throw new TryBudgetError(`This draft needs at least ${planned} calls (${plural(parsed.blueprint.prompts.length, 'prompt')} × ${plural(models.length, 'model')}, before judging) and ${left} ${left === 1 ? 'is' : 'are'} left today: pick fewer models or prompts. ${budgetSentence(used, settings, now).replace(/^Your try-it budget for today is used: /, 'Used so far: ')}`);
  }

  const source = await db.blueprintSource.upsert({ where: { key: DRAFTS_SOURCE_KEY }, create: { key: DRAFTS_SOURCE_KEY, kind: 'local' }, update: {}, select: { id: true } });
  const blueprintId = draftBlueprintId(author.githubLogin, req.name);
  // not published: the draft blueprint is created hidden and stays out of every list
  const version = await storeBlueprintVersion(db, source.id, blueprintId, { path: req.name, rawText: req.yaml, sourceCommit: null, blobSha: null }, parsed, { publish: false });
  const run = await deps.runs.requestRun(
    db,
    { blueprintId, versionId: version.versionId, models, judges: deps.judges, trigger: 'try', createdById: author.id, draft: true },
    deps.runs.dispatcher,
  );
  return { runId: run.runId, plannedCalls: planned };
}
