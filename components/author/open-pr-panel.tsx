'use client';
/** STUB (issue 16, "open-pr" helper replaces it): open a pull request with the draft. */
export interface OpenPrPanelProps {
  yaml: string;
  /** The path the author suggested (e.g. from "Edit a copy"), inside `blueprints/`. */
  suggestedPath: string;
  login: string | null;
  /** The latest try-it run of this draft, linked in the PR description. */
  tryRunUrl: string | null;
}

export function OpenPrPanel({ login }: OpenPrPanelProps) {
  return <p data-stub="open-pr">Open a pull request{login ? '' : ': sign in first'}.</p>;
}
