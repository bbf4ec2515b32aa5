/**
 * The admin page's "Human review" section: each blueprint's review queue and each reviewer's
 * work, then three plain HTML forms (POST): grant or revoke the reviewer role, draw verdicts or
 * pairs for review, remove a reviewer's labels. View model: adminReviewView
 * (lib/views/human-figures-view.ts).
 */
import Link from 'next/link';
import type { AdminReviewView } from '@/lib/views/human-figures-view';
import { Cell, Empty, Section, Table, link, muted } from '../ui';

const field = 'mt-1 rounded border border-zinc-300 bg-white px-2 py-1.5 dark:border-zinc-700 dark:bg-zinc-900';
const submit = 'rounded bg-zinc-900 px-3 py-1.5 text-sm font-medium text-white hover:bg-zinc-700 dark:bg-zinc-100 dark:text-zinc-900';
const BLUEPRINT_LIST = 'review-blueprint-ids';

function Queues({ view }: { view: AdminReviewView }) {
  if (view.blueprints.length === 0) return <Empty>No verdicts or pairs have been drawn for review yet: draw some below.</Empty>;
  return (
    <Table label="Review queues by blueprint" head={['Blueprint', 'Items', 'Complete', 'Coverage', 'Labels', 'Flags', 'Pairs', 'Pair labels']}>
      {view.blueprints.map((b) => (
        <tr key={b.blueprintId} data-testid="admin-review-blueprint">
          <Cell>
            <Link href={b.href} className={link}>
              {b.title}
            </Link>
            <span className={`block font-mono text-xs ${muted}`}>{b.blueprintId}</span>
          </Cell>
          <Cell>
            {b.items}
            <span className={`block text-xs ${muted}`}>{b.itemsOf}</span>
          </Cell>
          <Cell>{b.complete}</Cell>
          <Cell>{b.coverage}</Cell>
          <Cell>{b.labels}</Cell>
          <Cell>{b.flags}</Cell>
          <Cell>
            {b.pairs}
            <span className={`block text-xs ${muted}`}>{b.pairsComplete}</span>
          </Cell>
          <Cell>{b.pairLabels}</Cell>
        </tr>
      ))}
    </Table>
  );
}

function Reviewers({ view }: { view: AdminReviewView }) {
  if (view.reviewers.length === 0) return <Empty>No reviewer yet: grant the role below.</Empty>;
  return (
    <Table label="Reviewers" head={['Reviewer', 'Scopes', 'Labels', 'Pair labels', 'Today', 'Last 7 days', 'Last active', 'Agreement', 'Removed']}>
      {view.reviewers.map((r) => (
        <tr key={r.login} data-testid="admin-review-reviewer">
          <Cell mono>{r.login}</Cell>
          <Cell>{r.scopes}</Cell>
          <Cell>{r.labels}</Cell>
          <Cell>{r.pairLabels}</Cell>
          <Cell>{r.today}</Cell>
          <Cell>{r.last7Days}</Cell>
          <Cell>{r.lastActiveAt ? <time title={r.lastActiveAt}>{r.lastActive}</time> : r.lastActive}</Cell>
          <Cell>{r.agreement}</Cell>
          <Cell>{r.removed}</Cell>
        </tr>
      ))}
    </Table>
  );
}

function GrantForm({ view }: { view: AdminReviewView }) {
  return (
    <form method="post" action={view.actions.grants} className="flex flex-wrap items-end gap-3 text-sm" aria-labelledby="review-grant-h">
      <h3 id="review-grant-h" className="w-full font-semibold">
        Grant or revoke the reviewer role
      </h3>
      <label className="flex flex-col">
        GitHub login
        <input name="login" required autoComplete="off" className={field} data-testid="admin-grant-login" />
      </label>
      <label className="flex flex-col">
        Scope: a blueprint id, or * for all
        <input name="scope" required defaultValue="*" list={BLUEPRINT_LIST} className={`${field} font-mono`} data-testid="admin-grant-scope" />
      </label>
      <label className="flex items-center gap-1.5">
        <input type="checkbox" name="revoke" data-testid="admin-grant-revoke" /> revoke instead
      </label>
      <button type="submit" className={submit} data-testid="admin-grant-submit">
        Save
      </button>
    </form>
  );
}

function DrawForm({ view }: { view: AdminReviewView }) {
  const d = view.drawDefaults;
  return (
    <form method="post" action={view.actions.draws} className="flex flex-wrap items-end gap-3 text-sm" aria-labelledby="review-draw-h">
      <h3 id="review-draw-h" className="w-full font-semibold">
        Draw verdicts or pairs for review
      </h3>
      <p className={`w-full text-xs ${muted}`}>
        From the blueprint’s latest completed run; sealed prompts are never drawn. Verdicts: about the expected number of labels, uncertain and disputed verdicts more often, the first items to two reviewers each. Pairs: two models close in score, on the same prompt.
      </p>
      <label className="flex flex-col">
        Blueprint id
        <input name="blueprintId" required list={BLUEPRINT_LIST} className={`${field} font-mono`} data-testid="admin-draw-blueprint" />
      </label>
      <label className="flex flex-col">
        Kind
        <select name="kind" defaultValue="verdicts" className={field} data-testid="admin-draw-kind">
          <option value="verdicts">judged verdicts</option>
          <option value="pairs">pairs of replies</option>
        </select>
      </label>
      <label className="flex flex-col">
        Expected labels (verdicts)
        <input name="expectedLabels" type="number" min={1} step={1} defaultValue={d.expectedLabels} className={field} data-testid="admin-draw-expected" />
      </label>
      <label className="flex flex-col">
        Items to two reviewers (verdicts)
        <input name="overlapItems" type="number" min={0} step={1} defaultValue={d.overlapItems} className={field} data-testid="admin-draw-overlap" />
      </label>
      <label className="flex flex-col">
        Pairs (pairs)
        <input name="count" type="number" min={1} step={1} defaultValue={d.count} className={field} data-testid="admin-draw-count" />
      </label>
      <button type="submit" className={submit} data-testid="admin-draw-submit">
        Draw
      </button>
    </form>
  );
}

function RemoveForm({ view }: { view: AdminReviewView }) {
  return (
    <form method="post" action={view.actions.removeLabels} className="flex flex-wrap items-end gap-3 text-sm" aria-labelledby="review-remove-h">
      <h3 id="review-remove-h" className="w-full font-semibold">
        Remove a reviewer’s labels
      </h3>
      <p className={`w-full text-xs ${muted}`}>Every live label and pair preference of that reviewer stops counting (they are kept, marked removed), and the figures are made again without them.</p>
      <label className="flex flex-col">
        GitHub login
        <input name="login" required autoComplete="off" className={field} data-testid="admin-remove-login" />
      </label>
      <label className="flex items-center gap-1.5">
        <input type="checkbox" name="confirm" required data-testid="admin-remove-confirm" /> yes, remove all of this reviewer’s labels
      </label>
      <button type="submit" className="rounded bg-red-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-red-600" data-testid="admin-remove-submit">
        Remove labels
      </button>
    </form>
  );
}

export function AdminReview({ view }: { view: AdminReviewView }) {
  return (
    <Section title="Human review" id="review">
      <datalist id={BLUEPRINT_LIST}>
        {view.blueprintIds.map((id) => (
          <option key={id} value={id} />
        ))}
      </datalist>
      <Queues view={view} />
      <Reviewers view={view} />
      <div className="space-y-6 rounded border border-zinc-200 p-4 dark:border-zinc-800">
        <GrantForm view={view} />
        <DrawForm view={view} />
        <RemoveForm view={view} />
      </div>
    </Section>
  );
}
