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

/** The pull request's description: what the blueprint tests, its size, and the try-it results. */
/**
 * GitHub refuses a pull-request body over 65,536 characters (422, pulls/create); a blueprint's
 * description may be longer (a file may hold 1 MiB), so the description is cut well within it.
 */
export const MAX_DESCRIPTION_IN_BODY = 60_000;

export function pullRequestDescription(b: Blueprint, o: { path: string; author: string; tryRunUrl: string | null }): string {
  const points = b.prompts.reduce((n, p) => n + p.points.length, 0);
  const description = b.description?.trim() ?? '';
  const shown = description.length > MAX_DESCRIPTION_IN_BODY ? `${description.slice(0, MAX_DESCRIPTION_IN_BODY)}\n\n_… the description goes on in the file (${description.length.toLocaleString('en-US')} characters)._` : description;
  const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;
  const lines = [
    `### ${b.title}`,
    '',
    shown || '_No description in the blueprint header._',
    '',
    `- File: \`${o.path}\``,
    `- ${plural(b.prompts.length, 'prompt')}, ${plural(points, 'point')}`,
    ...(b.models.length ? [`- Models named in the blueprint: ${b.models.map((m) => `\`${m.kind === 'collection' ? m.name : m.id}\``).join(', ')}`] : []),
    `- Try-it results: ${o.tryRunUrl ? `[the draft's run](${o.tryRunUrl})` : 'not run before opening this pull request'}`,
    '',
    `Opened by @${o.author} from Assay's author workspace. Assay validates the file on this pull request; a maintainer approves its run.`,
  ];
  return lines.join('\n');
}
