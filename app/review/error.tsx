'use client';

export default function ReviewError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <div role="alert" className="space-y-3">
      <h1 className="text-xl font-semibold">The review page could not load</h1>
      <p className="text-sm text-zinc-600 dark:text-zinc-400">{error.digest ? `Error ${error.digest}; the server log has the details.` : error.message}</p>
      <button type="button" onClick={reset} className="rounded border border-zinc-300 px-3 py-1.5 text-sm dark:border-zinc-700">
        Try again
      </button>
    </div>
  );
}
