'use client';
/**
 * The blueprint editor: CodeMirror 6 with its YAML mode, checked on every change by the
 * parser `assay validate` runs (lib/core, in the page: no round trip). Problems are
 * underlined at their line:col with the message and hint on hover (@codemirror/lint) and
 * handed to the workspace for the problems list; `jumpTo` moves the cursor to one.
 *
 * CodeMirror rather than Monaco: ~10× smaller, no web-worker loader or CDN to configure, and
 * its packages are plain ES modules that Next bundles like any other.
 */
import { autocompletion, closeBrackets, closeBracketsKeymap, completionKeymap } from '@codemirror/autocomplete';
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { yaml as yamlLanguage } from '@codemirror/lang-yaml';
import { bracketMatching, defaultHighlightStyle, indentOnInput, syntaxHighlighting } from '@codemirror/language';
import { linter, lintGutter, lintKeymap, type Diagnostic } from '@codemirror/lint';
import { EditorState } from '@codemirror/state';
import { drawSelection, EditorView, highlightActiveLine, highlightActiveLineGutter, keymap, lineNumbers } from '@codemirror/view';
import { forwardRef, useEffect, useImperativeHandle, useRef } from 'react';
import type { AuthoringCatalog } from '@/lib/core';
import { authorProblems, type AuthorProblem } from '@/lib/views/author-problems';
import { blueprintCompletions, blueprintHover } from './editor-assist';

/** Typing pauses this long before the text is parsed: well inside the 300 ms budget (measured by e2e/author-editor.spec.ts). */
export const LINT_DELAY_MS = 120;

export interface CodeEditorHandle {
  /** Puts the cursor at `offset`, scrolls it into view and focuses the editor. */
  jumpTo(offset: number): void;
}

export interface CodeEditorProps {
  value: string;
  /** The file name the parser reports (and takes the format from). */
  file: string;
  onChange(text: string): void;
  onProblems(problems: AuthorProblem[]): void;
  /** Completion and hover documentation (built on the server: see editor-assist.ts). */
  catalog: AuthoringCatalog;
}

function diagnosticOf(p: AuthorProblem): Diagnostic {
  return {
    from: p.from,
    to: p.to,
    severity: p.severity,
    source: `${p.line}:${p.col}`,
    message: p.message,
    renderMessage() {
      const dom = document.createElement('div');
      dom.setAttribute('data-testid', 'lint-message');
      const what = dom.appendChild(document.createElement('div'));
      what.textContent = `${p.line}:${p.col} ${p.message}`;
      if (p.hint) {
        const hint = dom.appendChild(document.createElement('div'));
        hint.textContent = p.hint;
        hint.style.opacity = '0.8';
      }
      return dom;
    },
  };
}

export const CodeEditor = forwardRef<CodeEditorHandle, CodeEditorProps>(function CodeEditor({ value, file, onChange, onProblems, catalog }, ref) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  // the latest callbacks and file, read by the extensions without rebuilding the editor
  const latest = useRef({ onChange, onProblems, file });
  latest.current = { onChange, onProblems, file };

  useImperativeHandle(ref, () => ({
    jumpTo(offset) {
      const v = view.current;
      if (!v) return;
      const pos = Math.min(offset, v.state.doc.length);
      v.dispatch({ selection: { anchor: pos }, effects: EditorView.scrollIntoView(pos, { y: 'center' }) });
      v.focus();
    },
  }));

  useEffect(() => {
    const blueprintLinter = linter(
      (v) => {
        const problems = authorProblems(v.state.doc.toString(), latest.current.file);
        latest.current.onProblems(problems);
        return problems.map(diagnosticOf);
      },
      { delay: LINT_DELAY_MS },
    );
    const v = new EditorView({
      parent: host.current!,
      state: EditorState.create({
        doc: value,
        extensions: [
          lineNumbers(),
          highlightActiveLineGutter(),
          history(),
          drawSelection(),
          indentOnInput(),
          bracketMatching(),
          closeBrackets(),
          highlightActiveLine(),
          yamlLanguage(),
          syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
          blueprintLinter,
          lintGutter(),
          autocompletion({ override: [blueprintCompletions(catalog)] }),
          blueprintHover(catalog),
          keymap.of([...closeBracketsKeymap, ...defaultKeymap, ...historyKeymap, ...completionKeymap, ...lintKeymap, indentWithTab]),
          EditorView.updateListener.of((u) => {
            if (u.docChanged) latest.current.onChange(u.state.doc.toString());
          }),
          EditorView.contentAttributes.of({ 'aria-label': 'Blueprint YAML', 'data-testid': 'author-editor' }),
          EditorView.theme({ '&': { fontSize: '13px', border: '1px solid rgb(212 212 216)', borderRadius: '4px' }, '.cm-scroller': { fontFamily: 'ui-monospace, monospace', minHeight: '24rem', maxHeight: '70vh' } }),
        ],
      }),
    });
    view.current = v;
    host.current!.dataset.ready = 'true';
    return () => {
      v.destroy();
      view.current = null;
    };
    // the editor is created once; later `value`s arrive through the effect below
  }, []);

  // a change made outside the editor (the form view, a loaded draft) replaces its text
  useEffect(() => {
    const v = view.current;
    if (v && v.state.doc.toString() !== value) v.dispatch({ changes: { from: 0, to: v.state.doc.length, insert: value } });
  }, [value]);

  return <div ref={host} data-testid="author-editor-host" className="min-h-96" />;
});
