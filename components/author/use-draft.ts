'use client';
/**
 * Keeping the draft: every change goes to this browser's localStorage at once (so a reload, a
 * closed tab or a failed request loses nothing), and, for a signed-in author, to the account
 * (PUT /api/author/drafts) after a pause in typing. A failed save keeps the text, says so and
 * retries with a growing delay. On load the newest of the two copies is restored; a copy made
 * in this browser before signing in is moved to the account by the first save.
 */
import { useCallback, useEffect, useRef, useState } from 'react';

export const LOCAL_SAVE_DELAY_MS = 250;
export const ACCOUNT_SAVE_DELAY_MS = 1000;
const RETRY_DELAYS_MS = [2000, 5000, 15000, 30000];

interface Copy {
  yaml: string;
  updatedAt: string;
}

export type DraftStatus =
  | { kind: 'idle' }
  | { kind: 'local'; at: string }
  | { kind: 'saving' }
  | { kind: 'saved'; at: string }
  | { kind: 'failed'; message: string; retryInSeconds: number };

const localKey = (name: string) => `assay.author.draft:${name}`;

function readLocal(name: string): Copy | null {
  try {
    const raw = window.localStorage.getItem(localKey(name));
    const v = raw ? (JSON.parse(raw) as Partial<Copy>) : null;
    return v && typeof v.yaml === 'string' && typeof v.updatedAt === 'string' ? { yaml: v.yaml, updatedAt: v.updatedAt } : null;
  } catch {
    return null;
  }
}

function writeLocal(name: string, copy: Copy): boolean {
  try {
    window.localStorage.setItem(localKey(name), JSON.stringify(copy));
    return true;
  } catch {
    return false; // storage full or disabled: the account copy (if any) still goes on
  }
}

async function fetchAccountCopy(name: string): Promise<Copy | null> {
  const r = await fetch(`/api/author/drafts?name=${encodeURIComponent(name)}`, { headers: { accept: 'application/json' } });
  if (r.status === 404) return null;
  if (!r.ok) throw new Error(`loading your saved draft failed (HTTP ${r.status})`);
  const body = (await r.json()) as { draft?: Copy };
  return body.draft ?? null;
}

async function saveAccountCopy(name: string, yaml: string): Promise<string> {
  const r = await fetch('/api/author/drafts', { method: 'PUT', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify({ name, yaml }) });
  const body = (await r.json().catch(() => ({}))) as { draft?: { updatedAt: string }; error?: { message?: string } | string; message?: string };
  if (!r.ok || !body.draft) {
    const message = typeof body.error === 'string' ? body.error : (body.error?.message ?? body.message ?? `HTTP ${r.status}`);
    throw new Error(message);
  }
  return body.draft.updatedAt;
}

export interface Restored {
  yaml: string;
  from: 'account' | 'browser';
  at: string;
}

export function useDraft({ name, initialYaml, signedIn, onRestore }: { name: string; initialYaml: string; signedIn: boolean; onRestore(r: Restored): void }) {
  const [status, setStatus] = useState<DraftStatus>({ kind: 'idle' });
  const pending = useRef<string | null>(null);
  const timers = useRef<{ local?: number; account?: number }>({});
  const attempt = useRef(0);
  const restoreRef = useRef(onRestore);
  restoreRef.current = onRestore;

  const pushToAccount = useCallback(async () => {
    const yaml = pending.current;
    if (yaml === null) return;
    setStatus({ kind: 'saving' });
    try {
      const at = await saveAccountCopy(name, yaml);
      attempt.current = 0;
      if (pending.current === yaml) pending.current = null;
      setStatus({ kind: 'saved', at });
    } catch (e) {
      const delay = RETRY_DELAYS_MS[Math.min(attempt.current, RETRY_DELAYS_MS.length - 1)]!;
      attempt.current++;
      setStatus({ kind: 'failed', message: e instanceof Error ? e.message : String(e), retryInSeconds: Math.round(delay / 1000) });
      window.clearTimeout(timers.current.account);
      timers.current.account = window.setTimeout(() => void pushToAccount(), delay);
    }
  }, [name]);

  // restore the newest copy once, when the page opens
  useEffect(() => {
    let cancelled = false;
    const local = readLocal(name);
    (async () => {
      let account: Copy | null = null;
      if (signedIn) account = await fetchAccountCopy(name).catch(() => null);
      if (cancelled) return;
      const newest = account && (!local || account.updatedAt >= local.updatedAt) ? { ...account, from: 'account' as const } : local ? { ...local, from: 'browser' as const } : null;
      if (newest && newest.yaml !== initialYaml) restoreRef.current({ yaml: newest.yaml, from: newest.from, at: newest.updatedAt });
      // a copy this browser kept before signing in (or while the account was unreachable) moves to the account
      if (signedIn && local && newest?.from === 'browser' && local.yaml !== account?.yaml) {
        pending.current = local.yaml;
        void pushToAccount();
      }
    })();
    return () => {
      cancelled = true;
    };
    // once per draft name
  }, [name]);

  useEffect(() => () => {
    window.clearTimeout(timers.current.local);
    window.clearTimeout(timers.current.account);
  }, []);

  /** Called on every change of the text. */
  const changed = useCallback(
    (yaml: string) => {
      window.clearTimeout(timers.current.local);
      timers.current.local = window.setTimeout(() => {
        const at = new Date().toISOString();
        if (writeLocal(name, { yaml, updatedAt: at }) && !signedIn) setStatus({ kind: 'local', at });
      }, LOCAL_SAVE_DELAY_MS);
      if (!signedIn) return;
      pending.current = yaml;
      attempt.current = 0;
      window.clearTimeout(timers.current.account);
      timers.current.account = window.setTimeout(() => void pushToAccount(), ACCOUNT_SAVE_DELAY_MS);
    },
    [name, signedIn, pushToAccount],
  );

  return { status, changed };
}

export function draftStatusText(s: DraftStatus, signedIn: boolean): string {
  const time = (iso: string) => new Date(iso).toLocaleTimeString('en-GB');
  switch (s.kind) {
    case 'idle':
      return signedIn ? 'Your draft is saved to your account as you type.' : 'Your draft is kept in this browser as you type; sign in to keep it in your account.';
    case 'local':
      return `Kept in this browser at ${time(s.at)}. Sign in to keep it in your account.`;
    case 'saving':
      return 'Saving to your account…';
    case 'saved':
      return `Saved to your account at ${time(s.at)}.`;
    case 'failed':
      return `Not saved to your account: ${s.message}. Your text is kept in this browser; retrying in ${s.retryInSeconds} s.`;
  }
}
