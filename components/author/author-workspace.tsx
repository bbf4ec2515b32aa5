'use client';
/**
 * The author's workspace: the YAML editor and the panels that act on its text.
 * SKELETON (issue 16): the "editor" helper replaces the textarea with the code editor; the
 * panels are owned by the "form", "try-it" and "open-pr" helpers.
 */
import { useState } from 'react';
import { CheckPanel } from './check-panel';
import { FormView } from './form-view';
import { OpenPrPanel } from './open-pr-panel';
import { TryItPanel } from './try-it-panel';

export interface AuthorWorkspaceProps {
  initialYaml: string;
  initialName: string;
  examples: string[];
  login: string | null;
}

export function AuthorWorkspace({ initialYaml, initialName, examples, login }: AuthorWorkspaceProps) {
  const [yaml, setYaml] = useState(initialYaml);
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
      <textarea aria-label="Blueprint YAML" value={yaml} onChange={(e) => setYaml(e.target.value)} rows={24} className="w-full font-mono text-sm" />
      {/* The current text, for specs and assistive tooling: stays whatever the editor becomes. */}
      <pre data-testid="author-yaml" hidden>
        {yaml}
      </pre>
      <FormView yaml={yaml} onChange={setYaml} />
      <CheckPanel yaml={yaml} />
      <TryItPanel yaml={yaml} name={initialName} login={login} />
      <OpenPrPanel yaml={yaml} suggestedPath={initialName} login={login} tryRunUrl={null} />
    </div>
  );
}
