'use client';
/** The problems of the text in the editor, in text order; a click puts the cursor on one. An empty draft has none: it gets a hint. */
import { problemsSummary, type AuthorProblem } from '@/lib/views/author-problems';

export function ProblemsList({ problems, checked, empty = false, onJump }: { problems: AuthorProblem[]; checked: boolean; empty?: boolean; onJump(p: AuthorProblem): void }) {
  return (
    <section aria-labelledby="problems-h" data-testid="problems" className="rounded border border-zinc-200 p-3 text-sm dark:border-zinc-800">
      <h2 id="problems-h" className="font-medium">
        Problems{' '}
        <span className="font-normal text-zinc-600 dark:text-zinc-400" data-testid="problems-summary">
          {problemsSummary(problems, { checked, empty })}
        </span>
      </h2>
      {problems.length > 0 && (
        <ul className="mt-2 space-y-1">
          {problems.map((p, i) => (
            <li key={i}>
              <button type="button" onClick={() => onJump(p)} className="w-full text-left hover:bg-zinc-100 dark:hover:bg-zinc-900" data-testid="problem">
                <span className={p.severity === 'error' ? 'font-medium text-red-700 dark:text-red-400' : 'font-medium text-amber-700 dark:text-amber-400'}>{p.severity}</span>{' '}
                <span className="font-mono">
                  {p.line}:{p.col}
                </span>{' '}
                {p.message}
                {p.hint && <> <span className="block pl-4 text-zinc-600 dark:text-zinc-400">{p.hint}</span></>}
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
