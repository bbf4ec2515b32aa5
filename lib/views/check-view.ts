/**
 * The browser check (docs/authoring.md, "Check a reply in the browser"): every point of one prompt
 * of the draft graded against a pasted reply by the same code as `assay check` (lib/core's
 * `evaluateDeterministicPoint`, the point registry, `$js` in the QuickJS sandbox), with no budget
 * and no server. Points that an LLM judge grades are listed as needing one; "Try it" grades them.
 * When the sandbox cannot start here (the browser refused its WebAssembly), the points that need it
 * say so instead of guessing. Points and paths are named as the run pages name them (`pointLabel`,
 * `pathNames`), so a point checked here reads the same on the draft run's pages.
 */
import { evaluateDeterministicPoint, mayUseSandbox, parseBlueprint, pointLabel, type Prompt, type SandboxPort } from '@/lib/core';
import { pathNames } from './score-breakdown';

export type CheckStatus = 'pass' | 'fail' | 'not_applicable' | 'error' | 'needs_judge' | 'no_sandbox';

export interface CheckRow {
  index: number;
  /** The point as the run pages label it, e.g. `$icontains: paris` or the criterion's text. */
  text: string;
  kind: string;
  status: CheckStatus;
  /** 0–1 for a graded point; null otherwise. */
  score: number | null;
  detail: string;
  gate: boolean;
  /** The alternative path it belongs to as the run pages name it ("Path 1"), or null for a required point. */
  pathLabel: string | null;
  source: 'should' | 'should_not';
}

export interface CheckPrompt {
  id: string;
  /** The last user turn, shortened, to pick the prompt by. */
  label: string;
}

export type DraftPrompts = { ok: true; prompts: CheckPrompt[]; byId: Map<string, Prompt> } | { ok: false; message: string };

/** The draft's prompts, or why there are none to check (the first error, at file:line:col; `file`: the name the editor shows). */
export function draftPrompts(yaml: string, file: string): DraftPrompts {
  if (yaml.trim() === '') return { ok: false, message: 'The draft is empty: write or load a blueprint first.' };
  const parsed = parseBlueprint(yaml, { file });
  if (!parsed.ok) {
    const e = parsed.errors[0]!;
    return { ok: false, message: `Fix the draft first: ${e.file}:${e.line}:${e.col}: ${e.message}` };
  }
  const prompts = parsed.blueprint.prompts;
  return {
    ok: true,
    prompts: prompts.map((p) => {
      const user = [...p.messages].reverse().find((m) => m.role === 'user')?.content ?? '';
      const short = user.length > 70 ? `${user.slice(0, 69)}…` : user;
      return { id: p.id, label: `${p.id}: ${short}` };
    }),
    byId: new Map(prompts.map((p) => [p.id, p])),
  };
}

/** How the sandbox is had: started once on first need; null or a throw means it cannot run here. */
export type SandboxLoader = () => Promise<SandboxPort | null>;

export async function checkReply(prompt: Prompt, reply: string, loadSandbox: SandboxLoader): Promise<CheckRow[]> {
  const rows: CheckRow[] = [];
  const paths = pathNames(prompt.points.map((p) => p.path));
  let sandboxProblem: string | null = null;
  let sandbox: SandboxPort | null | undefined;
  for (const [index, point] of prompt.points.entries()) {
    const base = { index, text: pointLabel(point), kind: point.kind, gate: point.gate, pathLabel: point.path === null ? null : (paths.get(point.path) ?? null), source: point.source };
    let port: SandboxPort | undefined;
    if (mayUseSandbox(point)) {
      if (sandbox === undefined) {
        try {
          sandbox = await loadSandbox();
          if (!sandbox) sandboxProblem = 'the sandbox is not available in this browser';
        } catch (e) {
          sandbox = null;
          sandboxProblem = `the sandbox could not start in this browser (${(e as Error).message})`;
        }
      }
      if (!sandbox) {
        rows.push({ ...base, status: 'no_sandbox', score: null, detail: `This point runs in the JavaScript sandbox, and ${sandboxProblem}: "Try it" grades it on the server, or run \`assay check\`.` });
        continue;
      }
      port = sandbox;
    }
    const verdict = await evaluateDeterministicPoint(point, { content: reply, toolCalls: null }, { messages: prompt.messages, pointIndex: index, ...(port ? { sandbox: port } : {}) });
    if (verdict === 'needs-judge') {
      rows.push({ ...base, status: 'needs_judge', score: null, detail: 'Needs a judge: an LLM grades this point. "Try it" grades it.' });
      continue;
    }
    rows.push({ ...base, status: verdict.status, score: verdict.score, detail: verdict.detail ?? '' });
  }
  return rows;
}

/** "2 of 3 function points pass; 1 needs a judge." */
export function checkSummary(rows: readonly CheckRow[]): string {
  const graded = rows.filter((r) => r.status === 'pass' || r.status === 'fail' || r.status === 'not_applicable' || r.status === 'error');
  const pass = rows.filter((r) => r.status === 'pass').length;
  const judge = rows.filter((r) => r.status === 'needs_judge').length;
  const noSandbox = rows.filter((r) => r.status === 'no_sandbox').length;
  const parts = [`${pass} of ${graded.length} checked point${graded.length === 1 ? '' : 's'} pass`];
  if (judge) parts.push(`${judge} need${judge === 1 ? 's' : ''} a judge`);
  if (noSandbox) parts.push(`${noSandbox} need${noSandbox === 1 ? 's' : ''} the sandbox`);
  return `${parts.join('; ')}.`;
}
