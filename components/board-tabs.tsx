/** The home page's two leaderboards: the rubric's scores and people's pairwise preferences. */
import Link from 'next/link';

export interface BoardTabView {
  label: string;
  href: string;
  active: boolean;
}

export function BoardTabs({ tabs }: { tabs: BoardTabView[] }) {
  const tab = (active: boolean) =>
    `inline-block border-b-2 px-3 py-1.5 text-sm font-medium ${active ? 'border-zinc-900 dark:border-zinc-100' : 'border-transparent text-zinc-600 hover:border-zinc-400 dark:text-zinc-400'}`;
  return (
    <nav aria-label="Leaderboards" data-testid="board-tabs">
      <ul className="flex gap-2 border-b border-zinc-200 dark:border-zinc-800">
        {tabs.map((t) => (
          <li key={t.href}>
            <Link href={t.href} aria-current={t.active ? 'page' : undefined} className={tab(t.active)}>
              {t.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
