'use client';

export default function RunError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <div role="alert" className="space-y-2">
      <h1 className="text-2xl font-semibold">This run could not be shown</h1>
      <p className="text-zinc-600 dark:text-zinc-400">Something went wrong while reading its results{error.digest ? ` (reference ${error.digest})` : ''}.</p>
      <button type="button" onClick={reset} className="rounded border px-3 py-1">
        Try again
      </button>
    </div>
  );
}
