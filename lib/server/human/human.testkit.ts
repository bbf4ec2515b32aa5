/**
 * Fixtures for the review queue's database tests: a blueprint with open and sealed prompts whose
 * points are judged, run for real against the fake LLM server with a panel of two judges (so
 * every verdict, distribution and disagreement is the pipeline's own, never a hand-written row),
 * and the people who review it.
 */
import { parseBlueprint } from '@/lib/core';
import type { RuleInput } from '@/testing/fakes/llm-server-rules';
import type { Role } from '@/generated/prisma/client';
import type { Db } from '../db/client';
import { executeRun } from '../runs/engine/execute-run';
import { forgetRunContext } from '../runs/engine/run-context';
import { requestRun } from '../runs/request-run';
import { fakeDeps, noDispatch, storeBlueprint, TEST_DEFAULTS } from '../runs/runs.testkit';
import type { SealedSpelling } from '../blueprints/sealed-spellings.testkit';

export const REVIEW_MODELS = ['openai:model-alpha', 'openai:model-beta', 'openai:model-gamma'];

/** Each judge rule's reasoning: a blinded item must never carry one. */
export const JUDGE_REASONINGS = ['JUDGE-A-REASONING-concise', 'JUDGE-B-REASONING-concise', 'JUDGE-REASONING-polite', 'JUDGE-REASONING-rude', 'JUDGE-REASONING-alpha', 'JUDGE-REASONING-beta', 'JUDGE-REASONING-gamma', 'JUDGE-REASONING-other'];

/**
 * Open prompts with judged points of three kinds (the judges disagree on "concise", are both
 * unsure on "polite", and sure elsewhere), and two sealed prompts ("SECRET") with judged points.
 */
export const REVIEW_BLUEPRINT = `title: Review queue test
description: Judged points for the review queue
prompts:
  - id: open-1
    prompt: Describe apples.
    should: ["is concise", "is polite", "is accurate"]
    should_not: ["is rude"]
  - id: open-2
    prompt: Describe pears.
    should: ["is concise", "is polite", "is accurate"]
  - id: open-3
    prompt: Describe plums.
    should: ["is accurate", "$icontains: style"]
  - id: sealed-1
    split: test
    prompt: SECRET describe cherries.
    should: ["is concise", "SECRET is polite", "is accurate"]
  - id: sealed-2
    split: test
    prompt: SECRET describe figs.
    should: ["is polite"]
`;

export const SEALED_KEYS = ['sealed-1', 'sealed-2'];

const judge = (model: string, lastUser: RegExp | undefined, labels: Record<string, number>, reasoning: string): RuleInput => ({ model, ...(lastUser ? { lastUser } : {}), judge: { labels, reasoning } });

/**
 * The fake's script: judges first (their questions name the point), then each model's reply,
 * which says nothing of the model (a reviewer is blinded) but lets the judges tell them apart.
 */
export const REVIEW_RULES: RuleInput[] = [
  judge('judge-a', /is concise/, { A: 1 }, 'JUDGE-A-REASONING-concise'),
  judge('judge-b', /is concise/, { E: 1 }, 'JUDGE-B-REASONING-concise'),
  judge('judge-', /is polite/, { C: 1 }, 'JUDGE-REASONING-polite'),
  judge('judge-', /is rude/, { A: 1 }, 'JUDGE-REASONING-rude'),
  judge('judge-', /Alpha style/, { E: 1 }, 'JUDGE-REASONING-alpha'),
  judge('judge-', /Beta style/, { D: 1 }, 'JUDGE-REASONING-beta'),
  judge('judge-', /Gamma style/, { A: 1 }, 'JUDGE-REASONING-gamma'),
  judge('judge-', undefined, { C: 0.5, E: 0.5 }, 'JUDGE-REASONING-other'),
  { model: 'model-alpha', reply: 'Alpha style reply: a sweet fruit.' },
  { model: 'model-beta', reply: 'Beta style reply: a round fruit.' },
  { model: 'model-gamma', reply: 'Gamma style reply: a fruit.' },
];

export interface ReviewRun {
  blueprintId: string;
  runId: string;
  versionId: string;
}

/** Stores `text` as blueprint `path` and runs it to completion against the fake with the test panel of two judges. */
export async function runReviewBlueprint(db: Db, fakeUrl: string, opts: { path?: string; text?: string; models?: string[] } = {}): Promise<ReviewRun> {
  const { blueprintId } = await storeBlueprint(db, opts.path ?? 'review-queue.yml', opts.text ?? REVIEW_BLUEPRINT);
  const deps = await fakeDeps(db, fakeUrl, { sandbox: false });
  const { runId } = await requestRun(db, { blueprintId, trigger: 'cli', models: opts.models ?? REVIEW_MODELS }, noDispatch, TEST_DEFAULTS);
  const status = await executeRun(deps, runId);
  const run = await db.run.findUniqueOrThrow({ where: { id: runId }, select: { versionId: true, error: true } });
  if (status !== 'completed') throw new Error(`the review fixture's run ended ${status}: ${run.error}`);
  forgetRunContext(runId);
  return { blueprintId, runId, versionId: run.versionId };
}

export async function makeUser(db: Db, login: string, role: Role = 'reader'): Promise<{ id: string; githubLogin: string; role: Role }> {
  return db.user.create({ data: { githubLogin: login, role }, select: { id: true, githubLogin: true, role: true } });
}

/**
 * A sealed spelling (lib/server/blueprints/sealed-spellings.testkit.ts) with a judged point on
 * every prompt, so its sealed prompts have judged verdicts that a draw could take: text is added,
 * never changed, so the spelling of `split: test` is the original's. `checkJudgedSpelling` says
 * whether the result still seals what the original sealed.
 */
export function withJudgedPoints(s: SealedSpelling): SealedSpelling {
  const point = (value: string) => `"${/SECRET/.test(value) ? 'SECRET' : 'OPEN'} judged point"`;
  let text = s.text.replaceAll('"$icontains: OPEN"', '"$icontains: OPEN", "OPEN judged point"');
  // flow mappings and compact JSON: a prompt that ends its mapping gets a should list after it
  text = text.replace(/((?:"prompt"|prompt)\s*:\s*("?)(?:OPEN|SECRET)[^"},\n]*\2)(\s*\})/g, (_m, head: string, _q: string, tail: string) => `${head}, "should": [${point(head)}]${tail}`);
  // block mappings: a prompt line in an item that has no should key of its own
  const lines = text.split('\n');
  const out: string[] = [];
  lines.forEach((line, i) => {
    out.push(line);
    const m = /^( *)(- )?prompt: (.*(?:OPEN|SECRET).*)$/.exec(line);
    if (!m || m[3]!.trimStart().startsWith('{')) return;
    const indent = m[1]!.length + (m[2] ? 2 : 0);
    if (!itemLines(lines, i, indent).some((l) => new RegExp(`^ {${indent}}should:|^ {${indent - 2}}- should:`).test(l))) out.push(`${' '.repeat(indent)}should: [${point(m[3]!)}]`);
  });
  return { ...s, name: `${s.name} (judged)`, text: out.join('\n') };
}

/** The lines of the block mapping (a list item or a document) that line `i`, a key at `indent`, belongs to. */
function itemLines(lines: readonly string[], i: number, indent: number): string[] {
  const inItem = (l: string) => l !== '---' && (l.trim() === '' || l.search(/\S/) >= indent) && !(indent >= 2 && l.startsWith(`${' '.repeat(indent - 2)}- `));
  const start = (() => {
    let k = i;
    while (k > 0 && inItem(lines[k - 1]!)) k--;
    // the item's own first line (`- id: …`) belongs to it too
    return k > 0 && indent >= 2 && lines[k - 1]!.startsWith(`${' '.repeat(indent - 2)}- `) ? k - 1 : k;
  })();
  let end = i;
  while (end + 1 < lines.length && inItem(lines[end + 1]!)) end++;
  return lines.slice(start, end + 1);
}

/** Null when the judged spelling parses, seals as many prompts as the original and has a judged point on every prompt; else what is wrong. */
export function checkJudgedSpelling(s: SealedSpelling): string | null {
  const parsed = parseBlueprint(s.text, { file: s.file });
  if (!parsed.ok) return `does not parse: ${parsed.errors.map((e) => `${e.line}:${e.col} ${e.message}`).join('; ')}`;
  const sealed = parsed.blueprint.prompts.filter((p) => p.split === 'test').length;
  if (sealed !== s.sealed) return `seals ${sealed} prompts, not ${s.sealed}`;
  const unjudged = parsed.blueprint.prompts.filter((p) => !p.points.some((pt) => pt.kind === 'text')).map((p) => p.id);
  return unjudged.length ? `prompts without a judged point: ${unjudged.join(', ')}` : null;
}
