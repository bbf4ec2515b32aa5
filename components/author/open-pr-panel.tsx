'use client';
/**
 * "Open a pull request" with the draft: connect GitHub (only here is `public_repo` asked for),
 * pick the path (checked as you type, by the same rule the server applies), confirm replacing
 * an existing file, title it, open it; then the pull request's link and its checks, polled
 * until they are final. A failure says what to do next and keeps the draft: the editor's text
 * is never touched by this panel, and a retry resumes what GitHub already has.
 */
import { useCallback, useEffect, useState } from 'react';
import { OpenedPullRequestSchema, pullRequestPathProblem, PullRequestStatusSchema, type OpenedPullRequest, type PullRequestStatus } from '@/lib/core';

export interface OpenPrPanelProps {
  yaml: string;
  /** The path the author suggested (e.g. from "Edit a copy"), inside `blueprints/`. */
  suggestedPath: string;
  login: string | null;
  /** The latest try-it run of this draft, linked in the PR description. */
  tryRunUrl: string | null;
  /** Why connecting GitHub cannot work on this server (the settings it needs); null when it can. */
  connectUnavailable?: string | null;
}

interface Failure {
  message: string;
  next: string | null;
}

const POLL_MS = 2000;

function titleOf(yaml: string): string | null {
  return /^title:\s*["']?(.+?)["']?\s*$/m.exec(yaml)?.[1] ?? null;
}

export function OpenPrPanel({ yaml, suggestedPath, login, tryRunUrl, connectUnavailable = null }: OpenPrPanelProps) {
  const [path, setPath] = useState(suggestedPath);
  const [title, setTitle] = useState('');
  const [overwrite, setOverwrite] = useState(false);
  const [connection, setConnection] = useState<{ login: string | null; connected: boolean } | null>(null);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<Failure | null>(null);
  const [opened, setOpened] = useState<OpenedPullRequest | null>(null);
  const [status, setStatus] = useState<PullRequestStatus | null>(null);
  const pathProblem = pullRequestPathProblem(path);
  const effectiveTitle = title.trim() || `Add ${titleOf(yaml) ?? path}`;

  useEffect(() => {
    let live = true;
    fetch('/api/author/github', { cache: 'no-store' })
      .then((r) => r.json())
      .then((c: { login: string | null; connected: boolean }) => live && setConnection(c))
      .catch(() => live && setConnection({ login, connected: false }));
    return () => {
      live = false;
    };
  }, [login]);

  // the pull request's checks, until nothing more will change (a failed poll keeps the last status and tries again)
  const [polls, setPolls] = useState(0);
  useEffect(() => {
    if (!opened || status?.final) return;
    const timer = setTimeout(async () => {
      const res = await fetch(`/api/author/pull-request?number=${opened.number}`, { cache: 'no-store' }).catch(() => null);
      const parsed = res?.ok ? PullRequestStatusSchema.safeParse(await res.json()) : null;
      if (parsed?.success) setStatus(parsed.data);
      setPolls((n) => n + 1);
    }, polls === 0 ? 200 : POLL_MS);
    return () => clearTimeout(timer);
  }, [opened, status, polls]);

  const submit = useCallback(async () => {
    setBusy(true);
    setFailure(null);
    try {
      const res = await fetch('/api/author/pull-request', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ yaml, path, title: effectiveTitle, overwrite, tryRunUrl }),
      });
      const json: unknown = await res.json().catch(() => null);
      if (!res.ok) {
        const error = (json as { error?: { message?: string; details?: { next?: string } } } | null)?.error;
        setFailure({ message: error?.message ?? `The server answered HTTP ${res.status}; try again.`, next: error?.details?.next ?? null });
        if (error?.details?.next === 'connect') setConnection((c) => ({ login: c?.login ?? login, connected: false }));
        return;
      }
      const pr = OpenedPullRequestSchema.parse(json);
      setStatus(null);
      setPolls(0);
      setOpened(pr);
    } catch (e) {
      setFailure({ message: `The request did not go through (${(e as Error).message}); your draft is still here, try again.`, next: 'retry' });
    } finally {
      setBusy(false);
    }
  }, [yaml, path, effectiveTitle, overwrite, tryRunUrl, login]);

  const connectHref = () => `/api/auth/github/connect?returnTo=${encodeURIComponent(typeof window === 'undefined' ? '/author' : window.location.pathname + window.location.search)}`;

  return (
    <section aria-labelledby="open-pr-heading" data-testid="open-pr-panel" className="space-y-3 rounded border border-slate-300 p-4">
      <h2 id="open-pr-heading" className="text-lg font-semibold">Open a pull request</h2>
      {connectUnavailable ? (
        // no "Connect GitHub" link: it would lead to an error; the sentence names the settings instead
        <p className="text-sm" data-testid="connect-unavailable">
          {connectUnavailable}
        </p>
      ) : connection && !connection.connected ? (
        <p className="text-sm">
          Assay opens the pull request as you, with your GitHub account: it needs your permission to fork the blueprint repository and push a branch to your fork (GitHub&apos;s <code>public_repo</code> scope). The token stays on the server, encrypted, and is deleted when you sign out.{' '}
          <a href={connectHref()} className="font-medium underline" data-testid="connect-github">
            Connect GitHub to open pull requests
          </a>
        </p>
      ) : connection ? (
        <p className="text-sm text-slate-600" data-testid="github-connected">
          GitHub connected as {connection.login}.
        </p>
      ) : null}
      <div className="grid gap-2 sm:grid-cols-2">
        <label className="text-sm">
          File path
          <input value={path} onChange={(e) => setPath(e.target.value)} aria-invalid={!!pathProblem} aria-describedby="pr-path-problem" className="mt-1 block w-full rounded border px-2 py-1 font-mono text-sm" />
        </label>
        <label className="text-sm">
          Pull request title
          <input value={title} placeholder={effectiveTitle} onChange={(e) => setTitle(e.target.value)} className="mt-1 block w-full rounded border px-2 py-1 text-sm" />
        </label>
      </div>
      {pathProblem ? (
        <p id="pr-path-problem" role="alert" className="text-sm text-red-700">
          {pathProblem}
        </p>
      ) : null}
      <label className={`flex items-center gap-2 text-sm ${failure?.next === 'overwrite' ? 'font-medium text-amber-800' : ''}`}>
        <input type="checkbox" checked={overwrite} onChange={(e) => setOverwrite(e.target.checked)} />
        Replace the file at this path if it already exists
      </label>
      <button type="button" onClick={submit} disabled={busy || !!connectUnavailable || !!pathProblem || !yaml.trim() || (connection !== null && !connection.connected)} className="rounded bg-slate-900 px-3 py-1.5 text-sm font-medium text-white disabled:opacity-50">
        {busy ? 'Opening…' : 'Open pull request'}
      </button>
      {failure ? (
        <div role="alert" data-testid="pr-error" className="rounded border border-red-300 bg-red-50 p-2 text-sm text-red-900">
          <p>{failure.message}</p>
          {failure.next === 'connect' && !connectUnavailable ? (
            <a href={connectHref()} className="underline">
              Connect GitHub again
            </a>
          ) : null}
          {failure.next === 'overwrite' ? <p>Tick &ldquo;Replace the file&rdquo; above to replace it, or change the path.</p> : null}
        </div>
      ) : null}
      {opened ? (
        <div data-testid="pr-result" className="space-y-1 text-sm">
          <p>
            Pull request{' '}
            <a href={opened.url} data-testid="pr-link" className="font-medium underline" target="_blank" rel="noreferrer">
              #{opened.number}
            </a>{' '}
            opened from <code>{opened.head}</code>
            {opened.forked ? ' (your fork)' : ''}
            {opened.reused.length ? `; reused what an earlier attempt made (${opened.reused.join(', ')})` : ''}.
          </p>
          <p data-testid="pr-assay-state">Assay: {status?.assayState ? status.assayState.replace(/_/g, ' ') : 'waiting for GitHub to tell Assay about it'}</p>
          <ul aria-label="Checks" data-testid="pr-checks" className="list-disc pl-5">
            {(status?.checks ?? []).map((c) => (
              <li key={c.name}>
                {c.name}: {c.status === 'completed' ? (c.conclusion ?? 'completed') : c.status.replace(/_/g, ' ')}
                {c.summary ? ` — ${c.summary}` : ''}
              </li>
            ))}
            {status && status.checks.length === 0 ? <li>{status.final ? 'No checks on this commit (Assay reported by comment)' : 'No checks yet'}</li> : null}
          </ul>
          {status?.final ? <p data-testid="pr-final">Checks are final.</p> : <p className="text-slate-500">Refreshing…</p>}
        </div>
      ) : null}
    </section>
  );
}
