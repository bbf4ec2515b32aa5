/**
 * The signed-in author's drafts, newest first, each reopened by `/author?draft=<name>`
 * (the editor restores the newer of the account's and the browser's copy).
 */
/** One draft as the list shows it (lib/server/authoring/drafts.ts DraftSummary has this shape). */
export interface DraftLink {
  name: string;
  updatedAt: string;
}

export function DraftList({ drafts, current }: { drafts: DraftLink[]; current: string | null }) {
  if (drafts.length === 0) return null;
  return (
    <nav aria-label="Your drafts" className="text-sm">
      <h2 className="font-medium">Your drafts</h2>
      <ul className="mt-1 flex flex-wrap gap-x-4 gap-y-1">
        {drafts.map((d) => (
          <li key={d.name}>
            <a href={`/author?draft=${encodeURIComponent(d.name)}`} aria-current={d.name === current ? 'page' : undefined} className="underline">
              {d.name}
            </a>{' '}
            <time dateTime={d.updatedAt} className="text-zinc-500">
              {d.updatedAt.slice(0, 16).replace('T', ' ')} UTC
            </time>
          </li>
        ))}
      </ul>
    </nav>
  );
}
