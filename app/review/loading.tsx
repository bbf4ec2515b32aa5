export default function Loading() {
  return (
    <div aria-busy="true" aria-label="Loading the review page" className="space-y-4">
      <div className="h-8 w-48 animate-pulse rounded bg-zinc-200 dark:bg-zinc-800" />
      <div className="h-24 animate-pulse rounded bg-zinc-100 dark:bg-zinc-900" />
      <div className="h-40 animate-pulse rounded bg-zinc-100 dark:bg-zinc-900" />
    </div>
  );
}
