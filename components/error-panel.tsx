'use client';

/** What every route segment's error boundary shows: what failed, a reference, a retry. */
export interface ErrorBoundaryProps {
  error: Error & { digest?: string };
  reset: () => void;
}

export function ErrorPanel({ title, what, error, reset }: ErrorBoundaryProps & { title: string; what: string }) {
  return (
    <div role="alert" className="space-y-2">
      <h1 className="text-2xl font-semibold">{title}</h1>
      <p className="text-zinc-600 dark:text-zinc-400">
        {what}
        {error.digest ? ` (reference ${error.digest})` : ''}.
      </p>
      <button type="button" onClick={reset} className="rounded border px-3 py-1">
        Try again
      </button>
    </div>
  );
}
