'use client';
/**
 * The author's workspace: the YAML editor (CodeMirror, checked live by the blueprint parser),
 * its problems list, the draft kept in this browser and the account, and the panels that act
 * on its text (the form view, "Try it" and "Open pull request": docs/authoring.md).
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { AuthoringCatalog } from '@/lib/core';
import { isEmptyDraft, type AuthorProblem } from '@/lib/views/author-problems';
import type { AuthorSignInView } from '@/lib/views/sign-in-view';
import { CheckPanel } from './check-panel';
import { CodeEditor, type CodeEditorHandle } from './code-editor';
import { FormView } from './form-view';
import { OpenPrPanel } from './open-pr-panel';
import { ProblemsList } from './problems-list';
import { TryItPanel } from './try-it-panel';
import { draftStatusText, useDraft, type Restored } from './use-draft';

export interface AuthorWorkspaceProps {
  initialYaml: string;
  initialName: string;
  examples: string[];
  login: string | null;
  /** Where the text came from, shown above the editor (e.g. "a copy of blueprints/x.yml"). */
  origin?: string | null;
  /** Why the requested starting point could not be loaded (a sealed source, an unknown id). */
  notice?: string | null;
  /** The editor's completion and hover documentation; without it the editor offers none. */
  catalog?: AuthoringCatalog;
  /** Whether signing in and connecting GitHub can work here, and if not which settings they need. */
  signIn?: AuthorSignInView;
}

const EMPTY_CATALOG: AuthoringCatalog = { pointFunctions: [], criterionKinds: [], fields: { header: [], prompt: [], point: [] } };
const SIGN_IN_OFFERED: AuthorSignInView = { signIn: true, signInHref: '/api/auth/github?returnTo=%2Fauthor', signInUnavailable: null, connect: true, connectUnavailable: null };

export function AuthorWorkspace({ initialYaml, initialName, examples, login, origin = null, notice = null, catalog = EMPTY_CATALOG, signIn = SIGN_IN_OFFERED }: AuthorWorkspaceProps) {
  const [yaml, setYaml] = useState(initialYaml);
  const [problems, setProblems] = useState<AuthorProblem[]>([]);
  const [checked, setChecked] = useState(false);
  const [restored, setRestored] = useState<Restored | null>(null);
  // the latest try-it run of this draft, for the pull request's description; kept for the tab's
  // session because connecting GitHub (for the pull request) leaves the page and comes back
  const [tryRunUrl, setTryRunUrl] = useState<string | null>(null);
  const runKey = `assay:try-run:${initialName}`;
  useEffect(() => setTryRunUrl(sessionStorage.getItem(runKey)), [runKey]);
  const onRunStarted = useCallback(
    (url: string) => {
      setTryRunUrl(url);
      sessionStorage.setItem(runKey, url);
    },
    [runKey],
  );
  const editor = useRef<CodeEditorHandle>(null);

  const onRestore = useCallback((r: Restored) => {
    setRestored(r);
    setYaml(r.yaml);
  }, []);
  const draft = useDraft({ name: initialName, initialYaml, signedIn: login !== null, onRestore });

  const change = useCallback(
    (text: string) => {
      setYaml(text);
      draft.changed(text);
    },
    [draft],
  );
  const onProblems = useCallback((p: AuthorProblem[]) => {
    setProblems(p);
    setChecked(true);
  }, []);

  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold tracking-tight">Write a blueprint</h1>
      <nav aria-label="Examples" className="text-sm">
        Start from an example:{' '}
        {examples.map((name) => (
          <a key={name} href={`/author?example=${encodeURIComponent(name)}`} className="mr-3 underline">
            {name}
          </a>
        ))}
      </nav>
      {notice && (
        <p role="status" className="text-sm text-amber-800 dark:text-amber-300" data-testid="author-notice">
          {notice}
        </p>
      )}
      <div className="space-y-2">
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          <span className="font-mono">{initialName}</span>
          {origin && <> — {origin}</>}
        </p>
        {restored && (
          <p role="status" className="text-sm" data-testid="draft-restored">
            Restored your draft from {restored.from === 'account' ? 'your account' : 'this browser'} (saved {new Date(restored.at).toLocaleString('en-GB')}).{' '}
            <button type="button" className="underline" onClick={() => change(initialYaml)}>
              Start over from the original
            </button>
          </p>
        )}
        <CodeEditor ref={editor} value={yaml} file={initialName} onChange={change} onProblems={onProblems} catalog={catalog} />
        <p className={`text-sm ${draft.status.kind === 'failed' ? 'text-red-700 dark:text-red-400' : 'text-zinc-600 dark:text-zinc-400'}`} data-testid="draft-status" role="status">
          {draftStatusText(draft.status, login !== null)}
        </p>
      </div>
      <ProblemsList problems={problems} checked={checked} empty={isEmptyDraft(yaml)} onJump={(p) => editor.current?.jumpTo(p.from)} />
      {/* The current text, for specs and assistive tooling: stays whatever the editor becomes. */}
      <pre data-testid="author-yaml" hidden>
        {yaml}
      </pre>
      <FormView yaml={yaml} onChange={change} />
      <CheckPanel yaml={yaml} file={initialName} />
      <TryItPanel yaml={yaml} name={initialName} login={login} onRunStarted={onRunStarted} signInUnavailable={signIn.signInUnavailable} signInHref={signIn.signInHref ?? undefined} />
      <OpenPrPanel yaml={yaml} suggestedPath={initialName} login={login} tryRunUrl={tryRunUrl} connectUnavailable={signIn.connectUnavailable} />
    </div>
  );
}
