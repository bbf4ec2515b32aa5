/**
 * "Open a pull request" from the author workspace, the pure part shared by the panel (which
 * checks the path as the author types) and the server use case (which checks it again): where
 * a file may go, the request and reply shapes, the branch name, and the generated description.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { z } from 'zod';
import type { Blueprint } from '../blueprint/schema';

export const BLUEPRINT_DIR = 'blueprints/';

/**
 * Why a path cannot take the draft, or null when it can: inside `blueprints/`, ending `.yml` or
 * `.yaml`, relative, no `..`/`.`/empty segment, no backslash, only characters GitHub and every
 * checkout handle (letters, digits, `-`, `_`, `.`, `/`).
 */
export function pullRequestPathProblem(path: string): string | null {
  if (!path.startsWith(BLUEPRINT_DIR)) return `The file must be inside ${BLUEPRINT_DIR} (e.g. blueprints/my-topic/my-blueprint.yml).`;
  if (!/\.ya?ml$/.test(path)) return 'The file name must end in .yml or .yaml.';
  if (path.includes('\\')) return 'Use / between folders, not \\.';
  const segments = path.split('/');
  if (segments.some((s) => s === '..' || s === '.' || s === '')) return 'The path may not contain "..", "." or an empty folder name ("//").';
  if (!/^[A-Za-z0-9_./-]+$/.test(path)) return 'Use only letters, digits, "-", "_" and "." in folder and file names.';
  if (path.length > 200) return 'The path is longer than 200 characters.';
  return null;
}

/**
 * The file already on the base branch that `path` would collide with, or null: the same path, or
 * one differing only in case. Git and GitHub keep `blueprints/Greetings.yml` and
 * `blueprints/greetings.yml` apart, but a checkout on a case-insensitive file system (macOS,
 * Windows by default) holds only one of them, so a second one silently replaces the first there.
 * Paths are ASCII (pullRequestPathProblem), so lower-casing is the whole case folding.
 */
export function collidingPath(path: string, existing: Iterable<string>): string | null {
  const folded = path.toLowerCase();
  let hit: string | null = null;
  for (const p of existing) {
    if (p === path) return p;
    if (hit === null && p.toLowerCase() === folded) hit = p;
  }
  return hit;
}

export const OpenPullRequestBodySchema = z.object({
  yaml: z.string().min(1, 'the draft is empty').max(512 * 1024),
  path: z.string().min(1).max(200),
  title: z.string().trim().min(1, 'give the pull request a title').max(200),
  /** The author confirmed replacing the file already at `path` on the base branch. */
  overwrite: z.boolean().default(false),
  /** The draft's try-it run, linked in the description (a path on this site or an absolute URL). */
  tryRunUrl: z.string().max(500).nullable().default(null),
});
export type OpenPullRequestBody = z.infer<typeof OpenPullRequestBodySchema>;

export const OpenedPullRequestSchema = z.object({
  number: z.number().int().positive(),
  url: z.string(),
  headSha: z.string(),
  /** `owner:branch` of the head. */
  head: z.string(),
  forked: z.boolean(),
  /** What a retry found already made and reused (a fork, the branch, the commit, the pull request). */
  reused: z.array(z.enum(['fork', 'branch', 'commit', 'pull_request'])),
});
export type OpenedPullRequest = z.infer<typeof OpenedPullRequestSchema>;

/** A check on the pull request's head: Assay's own validation (the PullRequest table) or a GitHub check run. */
export const PullRequestCheckSchema = z.object({
  name: z.string(),
  /** queued | in_progress | completed */
  status: z.string(),
  /** success | failure | neutral | … when completed, else null. */
  conclusion: z.string().nullable(),
  summary: z.string().nullable(),
  detailsUrl: z.string().nullable(),
});
export const PullRequestStatusSchema = z.object({
  number: z.number().int(),
  url: z.string(),
  state: z.enum(['open', 'closed']),
  headSha: z.string(),
  /** Assay's record of the pull request (validating, invalid, awaiting_approval, …), null until its webhook arrived. */
  assayState: z.string().nullable(),
  checks: z.array(PullRequestCheckSchema),
  /** Nothing more will change without someone acting: stop polling. */
  final: z.boolean(),
});
export type PullRequestStatus = z.infer<typeof PullRequestStatusSchema>;

/** Assay's states after which validation is done (see lib/server/github/pull-requests). */
const SETTLED_STATES = new Set(['invalid', 'awaiting_approval', 'no_blueprints', 'approved', 'running', 'reported']);

/**
 * Final once Assay's record has settled and every check on the head has completed. Without a
 * GitHub App Assay makes no check run (docs/github.md, token-only mode), so a settled record
 * with no checks at all is final too; before Assay has a record, the checks alone decide.
 */
export function isStatusFinal(s: Pick<PullRequestStatus, 'state' | 'assayState' | 'checks'>): boolean {
  if (s.state === 'closed') return true;
  const checksDone = s.checks.every((c) => c.status === 'completed');
  if (s.assayState !== null) return checksDone && SETTLED_STATES.has(s.assayState);
  return checksDone && s.checks.length > 0;
}

/** The draft's content fingerprint, 8 hex digits: the same draft retried lands on the same branch. */
export function draftFingerprint(yaml: string): string {
  return bytesToHex(sha256(utf8ToBytes(yaml))).slice(0, 8);
}

/** `assay/<file name without extension>-<fingerprint>`, and `-2`, `-3`… when that name is taken by other content. */
export function branchNameFor(path: string, yaml: string, attempt = 1): string {
  const stem = (path.split('/').at(-1) ?? 'blueprint').replace(/\.ya?ml$/, '').replace(/[^A-Za-z0-9_-]+/g, '-').slice(0, 60) || 'blueprint';
  return `assay/${stem}-${draftFingerprint(yaml)}${attempt > 1 ? `-${attempt}` : ''}`;
}

/**
 * GitHub refuses a pull-request body over 65,536 characters (422, pulls/create); a blueprint's
 * description may be longer (a file may hold 1 MiB), so the description is cut well within it.
 */
export const MAX_DESCRIPTION_IN_BODY = 60_000;

/**
 * The pull request's description: what the blueprint tests, its size, and the try-it results.
 * Everything the author wrote (title, description, model ids) is shown as code, which GitHub
 * renders as typed: no link, image, HTML, @mention or #reference in it is acted on (GitHub finds
 * mentions after rendering, in text outside code, so escaping `@` with a backslash would not
 * stop one). The only link is the try-it run, and only to a run page of this site (tryRunLink).
 */
export function pullRequestDescription(b: Blueprint, o: { path: string; author: string; tryRunUrl: string | null }): string {
  const points = b.prompts.reduce((n, p) => n + p.points.length, 0);
  const description = b.description?.trim() ?? '';
  const cut = description.length > MAX_DESCRIPTION_IN_BODY;
  const shown = cut ? description.slice(0, MAX_DESCRIPTION_IN_BODY) : description;
  const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;
  const lines = [
    `### Blueprint ${codeSpan(b.title)}`,
    '',
    ...(shown ? [codeBlock(shown), ...(cut ? ['', `_… the description goes on in the file (${description.length.toLocaleString('en-US')} characters)._`] : [])] : ['_No description in the blueprint header._']),
    '',
    `- File: ${codeSpan(o.path)}`,
    `- ${plural(b.prompts.length, 'prompt')}, ${plural(points, 'point')}`,
    ...(b.models.length ? [`- Models named in the blueprint: ${b.models.map((m) => codeSpan(m.kind === 'collection' ? m.name : m.id)).join(', ')}`] : []),
    `- Try-it results: ${o.tryRunUrl ? `[the draft's run](${o.tryRunUrl})` : 'not run before opening this pull request'}`,
    '',
    // the login comes from GitHub (the authenticated user), not from the request
    `Opened by @${o.author} from Assay's author workspace. Assay validates the file on this pull request; a maintainer approves its run.`,
  ];
  return lines.join('\n');
}

/** The longest run of backticks in `text`. */
function longestBacktickRun(text: string): number {
  let longest = 0;
  for (const m of text.matchAll(/`+/g)) longest = Math.max(longest, m[0].length);
  return longest;
}

/**
 * One line of text as a CommonMark code span: delimited by more backticks than any run inside,
 * padded with a space when it starts or ends with a backtick; line breaks become spaces (a
 * blank line would end the span's paragraph).
 */
export function codeSpan(text: string): string {
  const line = text.replace(/[\r\n]+/g, ' ');
  const fence = '`'.repeat(longestBacktickRun(line) + 1);
  const pad = line.startsWith('`') || line.endsWith('`') || line.trim() === '' ? ' ' : '';
  return `${fence}${pad}${line}${pad}${fence}`;
}

/** Text as a fenced code block whose fence is longer than any backtick run inside it (so the text cannot close it). */
export function codeBlock(text: string): string {
  const fence = '`'.repeat(Math.max(3, longestBacktickRun(text) + 1));
  return `${fence}text\n${text.replace(/\r\n?/g, '\n')}\n${fence}`;
}

/**
 * The pull request's title as GitHub will show it: one line (control characters are spaces),
 * and an @ before a name followed by a zero-width space, so that a title cannot notify anyone.
 */
export function pullRequestTitle(title: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are what is removed
  return title.replace(/[\u0000-\u001f\u007f]+/g, ' ').replace(/@(?=[A-Za-z0-9])/g, '@\u200b').trim();
}

/**
 * The try-it run to link in the description, as an absolute address on this site: a run page
 * (`/runs/<id>`, as the panel sends it), never another site or scheme, since the description
 * is posted as the author on GitHub. `(` and `)` are percent-encoded so the Markdown link cannot end early.
 */
export function tryRunLink(written: string, publicUrl: string): { ok: true; url: string } | { ok: false; problem: string } {
  const site = new URL(publicUrl);
  if (!URL.canParse(written, site)) return { ok: false, problem: `${JSON.stringify(written)} is not an address` };
  const url = new URL(written, site);
  if (url.origin !== site.origin || url.username || url.password) return { ok: false, problem: `the try-it run must be a page of this site (${site.origin}), not ${url.origin}` };
  if (!/^\/runs\/[^/]+(\/progress)?$/.test(url.pathname)) return { ok: false, problem: `the try-it run must be a run page (/runs/<run id>), not ${url.pathname}` };
  return { ok: true, url: url.href.replace(/\(/g, '%28').replace(/\)/g, '%29') };
}
