/** The review home: what reviewing is, then the blueprints this reviewer may review (or how to sign in). */
import { REVIEW_EXPLAINED, REVIEW_NOTHING, type ReviewHomeRow, type ReviewSignInView } from '@/lib/views/review-view';
import { Banner, Cell, Empty, Table, link, muted } from '../ui';

function Explained() {
  return <p className={`max-w-prose text-sm ${muted}`}>{REVIEW_EXPLAINED}</p>;
}

export function ReviewSignIn({ view }: { view: ReviewSignInView }) {
  return (
    <div className="mx-auto max-w-md space-y-6">
      <h1 className="text-2xl font-semibold tracking-tight">Review</h1>
      <Explained />
      {view.href ? (
        <a href={view.href} data-testid="review-sign-in" className="block rounded bg-zinc-900 px-3 py-2 text-center text-sm font-medium text-white hover:bg-zinc-700 dark:bg-zinc-100 dark:text-zinc-900">
          {view.label}
        </a>
      ) : (
        <p data-testid="review-sign-in-unavailable" className="rounded border border-zinc-200 p-4 text-sm dark:border-zinc-800">
          {view.unavailable}
        </p>
      )}
    </div>
  );
}

export function ReviewHome({ login, rows, error }: { login: string; rows: ReviewHomeRow[]; error: string | null }) {
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-baseline justify-between gap-3">
        <h1 className="text-2xl font-semibold tracking-tight">Review</h1>
        <p className="text-sm" data-testid="signed-in-as">
          Signed in as <strong>{login}</strong>
        </p>
      </div>
      <Explained />
      {error && <Banner kind="error">{error}</Banner>}
      {rows.length === 0 ? (
        <Empty>{REVIEW_NOTHING}</Empty>
      ) : (
        <Table label="Blueprints to review" head={['Blueprint', 'Label verdicts', 'Compare replies', 'Answered today']}>
          {rows.map((r) => (
            <tr key={r.blueprintId} data-testid="review-blueprint" data-blueprint-id={r.blueprintId}>
              <Cell>{r.title}</Cell>
              <Cell>
                <a href={r.items.href} className={link}>
                  {r.items.text}
                </a>
              </Cell>
              <Cell>
                <a href={r.pairs.href} className={link}>
                  {r.pairs.text}
                </a>
              </Cell>
              <Cell>
                <span className="tabular-nums">{r.answeredToday}</span>
              </Cell>
            </tr>
          ))}
        </Table>
      )}
    </div>
  );
}
