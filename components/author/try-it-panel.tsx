'use client';
/** STUB (issue 16, "try-it" helper replaces it): run the draft on a few allowed models within the author's budget. */
export interface TryItPanelProps {
  yaml: string;
  /** The draft's name/path, for the run's title. */
  name: string;
  /** The signed-in author's login, or null (then the panel offers sign-in). */
  login: string | null;
}

export function TryItPanel({ login }: TryItPanelProps) {
  return <p data-stub="try-it">Try it{login ? '' : ': sign in first'}.</p>;
}
