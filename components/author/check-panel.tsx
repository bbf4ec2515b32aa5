'use client';
/**
 * The browser check (docs/authoring.md): paste a reply, pick a prompt, see every point's verdict,
 * graded here by lib/core (the same code as `assay check`): no budget, no server call. Judged
 * points say they need a judge ("Try it" grades them); `$js` points run in the QuickJS sandbox when
 * the browser can start it, and say so when it cannot.
 */
import { useMemo, useRef, useState } from 'react';
import { createQuickJsSandbox, type SandboxPort } from '@/lib/core';
import { checkReply, checkSummary, draftPrompts, type CheckRow, type CheckStatus } from '@/lib/views/check-view';
import { muted } from '@/components/ui';

export interface CheckPanelProps {
  yaml: string;
  /** The draft's name as the editor shows it: the problems cite it. */
  file: string;
}

const STATUS_LABEL: Record<CheckStatus, string> = {
  pass: 'pass',
  fail: 'fail',
  not_applicable: 'not applicable',
  error: 'error',
  needs_judge: 'needs a judge',
  no_sandbox: 'needs the sandbox',
};
const STATUS_TONE: Record<CheckStatus, string> = {
  pass: 'bg-emerald-100 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-200',
  fail: 'bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-200',
  not_applicable: 'bg-zinc-100 text-zinc-800 dark:bg-zinc-800 dark:text-zinc-200',
  error: 'bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200',
  needs_judge: 'bg-sky-100 text-sky-900 dark:bg-sky-950 dark:text-sky-200',
  no_sandbox: 'bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200',
};

/** One point's verdict on the pasted reply, worded as the run pages word it. */
export function CheckResultRow({ row: r }: { row: CheckRow }) {
  return (
    <tr data-testid="check-row" data-status={r.status} className="border-t border-zinc-100 align-top dark:border-zinc-800">
      {/* a space, not a margin, before each badge: the parts stay apart in the page's text (copied, read aloud, searched) */}
      <td className="py-1 pr-3">
        {r.source === 'should_not' && <span className={muted}>Must not: </span>}
        {r.text}
        {r.gate && <> <span className="rounded bg-zinc-100 px-1 text-xs dark:bg-zinc-800">gate</span></>}
        {r.pathLabel && <> <span className={`text-xs ${muted}`}>{r.pathLabel} (OR)</span></>}
      </td>
      <td className="py-1 pr-3">
        <span className={`rounded px-1.5 py-0.5 text-xs font-medium ${STATUS_TONE[r.status]}`}>{STATUS_LABEL[r.status]}</span>
        {r.score !== null && r.status !== 'pass' && r.status !== 'fail' && <> <span className={muted}>{r.score.toFixed(2)}</span></>}
      </td>
      <td className={`py-1 ${muted}`}>{r.detail}</td>
    </tr>
  );
}

export function CheckPanel({ yaml, file }: CheckPanelProps) {
  const draft = useMemo(() => draftPrompts(yaml, file), [yaml, file]);
  const [promptId, setPromptId] = useState<string>('');
  const [reply, setReply] = useState('');
  const [rows, setRows] = useState<CheckRow[] | null>(null);
  const [checking, setChecking] = useState(false);
  // started once, on the first point that needs it (the wasm module is a few hundred kB)
  const sandbox = useRef<Promise<SandboxPort> | null>(null);
  const chosen = draft.ok ? (draft.prompts.find((p) => p.id === promptId) ?? draft.prompts[0]) : undefined;

  async function check() {
    if (!draft.ok || !chosen) return;
    setChecking(true);
    try {
      setRows(await checkReply(draft.byId.get(chosen.id)!, reply, () => (sandbox.current ??= createQuickJsSandbox())));
    } finally {
      setChecking(false);
    }
  }

  return (
    <section aria-labelledby="check-h" className="space-y-3 rounded border border-zinc-200 p-4 dark:border-zinc-800" data-testid="check-panel">
      <h2 id="check-h" className="text-lg font-semibold">Check a reply</h2>
      <p className={`text-sm ${muted}`}>Paste a reply and see how each point grades it, here in your browser: no model is called and nothing is spent.</p>
      {!draft.ok ? (
        <p className="text-sm" role="status">{draft.message}</p>
      ) : draft.prompts.length === 0 ? (
        <p className="text-sm" role="status">The draft has no prompts yet.</p>
      ) : (
        <>
          <label className="flex flex-col text-sm">
            Prompt
            <select value={chosen?.id ?? ''} onChange={(e) => { setPromptId(e.target.value); setRows(null); }} className="mt-1 max-w-xl rounded border border-zinc-300 bg-white px-2 py-1.5 dark:border-zinc-700 dark:bg-zinc-900">
              {draft.prompts.map((p) => (
                <option key={p.id} value={p.id}>{p.label}</option>
              ))}
            </select>
          </label>
          <label className="flex flex-col text-sm">
            Reply to check
            <textarea value={reply} onChange={(e) => setReply(e.target.value)} rows={5} className="mt-1 rounded border border-zinc-300 bg-white p-2 font-mono text-sm dark:border-zinc-700 dark:bg-zinc-900" />
          </label>
          <button type="button" onClick={() => void check()} disabled={checking} className="rounded bg-zinc-900 px-3 py-1.5 text-sm font-medium text-white hover:bg-zinc-700 disabled:opacity-50 dark:bg-zinc-100 dark:text-zinc-900">
            {checking ? 'Checking…' : 'Check the reply'}
          </button>
          {rows && (
            <div className="space-y-2" data-testid="check-results">
              <p className="text-sm font-medium" role="status">{checkSummary(rows)}</p>
              <table className="w-full text-left text-sm">
                <thead>
                  {/* a trailing space in each header: "Point Verdict Why" in the page's text, never "PointVerdictWhy" */}
                  <tr className={muted}>
                    <th className="py-1 pr-3 font-normal">Point </th>
                    <th className="py-1 pr-3 font-normal">Verdict </th>
                    <th className="py-1 font-normal">Why </th>
                  </tr>
                </thead>
                <tbody>
                  {rows.map((r) => (
                    <CheckResultRow key={r.index} row={r} />
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </>
      )}
    </section>
  );
}
