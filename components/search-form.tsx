/** Search box: a plain GET form, so it works before (and without) any JavaScript. */
export function SearchForm({ q = '', kind, compact = false }: { q?: string; kind?: string; compact?: boolean }) {
  return (
    <form action="/search" method="get" role="search" className="flex gap-2">
      <label htmlFor={compact ? 'search-q-nav' : 'search-q'} className="sr-only">
        Search prompts and replies
      </label>
      <input
        id={compact ? 'search-q-nav' : 'search-q'}
        name="q"
        type="search"
        defaultValue={q}
        placeholder="Search prompts and replies"
        maxLength={200}
        className={`rounded border border-zinc-300 bg-white px-2 py-1 text-sm text-zinc-900 placeholder:text-zinc-500 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100 dark:placeholder:text-zinc-400 ${compact ? 'w-40 sm:w-56' : 'w-full max-w-md'}`}
      />
      {kind && <input type="hidden" name="kind" value={kind} />}
      <button type="submit" className="rounded border border-zinc-300 px-3 py-1 text-sm hover:bg-zinc-100 dark:border-zinc-700 dark:hover:bg-zinc-800">
        Search
      </button>
    </form>
  );
}
