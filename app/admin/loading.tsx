export default function Loading() {
  return (
    <div aria-busy="true" aria-label="Loading the admin area" className="space-y-4">
      <div className="h-8 w-40 animate-pulse rounded bg-zinc-200 dark:bg-zinc-800" />
      <div className="h-32 animate-pulse rounded bg-zinc-100 dark:bg-zinc-900" />
      <div className="h-32 animate-pulse rounded bg-zinc-100 dark:bg-zinc-900" />
    </div>
  );
}
