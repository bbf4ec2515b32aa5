'use client';
/** STUB (issue 16, "try-it" helper replaces it): paste a reply, see every point's verdict (no budget, in the browser). */
export interface CheckPanelProps {
  yaml: string;
}

export function CheckPanel(_props: CheckPanelProps) {
  return <p data-stub="check">Check a reply.</p>;
}
