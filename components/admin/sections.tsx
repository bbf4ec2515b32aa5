/** The admin page's sections, each rendering its part of the AdminView. Presentational. */
import { FinalStatusSchema } from '@/lib/core';
import type { AdminView } from '@/lib/views/admin-view';
import { Cell, Empty, PostButton, Section, Table } from '../ui';

export function SyncStatus({ view }: { view: AdminView }) {
  return (
    <Section title="Sync status" id="sync">
      <div className="flex items-center gap-3">
        <PostButton action="/api/admin/sync" label="Sync now" />
        <span className="text-sm text-zinc-600 dark:text-zinc-400">Pushes sync through the webhook; a cron catches missed ones.</span>
      </div>
      {view.sources.length === 0 ? (
        <Empty>No source has been synced yet.</Empty>
      ) : (
        <Table label="Sources" head={['Source', 'Blueprints', 'Commit', 'Synced', 'Error']}>
          {view.sources.map((s) => (
            <tr key={s.key}>
              <Cell mono>{s.key}</Cell>
              <Cell>{s.blueprints}</Cell>
              <Cell mono>{s.commit}</Cell>
              <Cell>{s.synced}</Cell>
              <Cell>{s.error && <span className="text-red-700 dark:text-red-400">{s.error}</span>}</Cell>
            </tr>
          ))}
        </Table>
      )}
      {view.syncs.length > 0 && (
        <Table label="Recent syncs" head={['When', 'Trigger', 'Status', 'Commit', 'Changes', 'Blobs fetched']}>
          {view.syncs.map((s) => (
            <tr key={s.id}>
              <Cell>{s.when}</Cell>
              <Cell>{s.trigger}</Cell>
              <Cell>
                <span className={s.failed ? 'font-medium text-red-700 dark:text-red-400' : ''}>{s.status}</span>
                {s.error && <span className="block text-xs text-red-700 dark:text-red-400">{s.error}</span>}
              </Cell>
              <Cell mono>{s.commit}</Cell>
              <Cell>{s.changes}</Cell>
              <Cell>{s.blobs}</Cell>
            </tr>
          ))}
        </Table>
      )}
    </Section>
  );
}

export function PullRequests({ view }: { view: AdminView }) {
  return (
    <Section title="Pull requests" id="pull-requests">
      {view.pullRequests.length === 0 ? (
        <Empty>No open pull request waits for Assay.</Empty>
      ) : (
        <Table label="Pull requests" head={['#', 'Title', 'Author', 'Commit', 'State', '']}>
          {view.pullRequests.map((p) => (
            <tr key={`${p.number}-${p.commit}`}>
              <Cell>#{p.number}</Cell>
              <Cell>{p.title}</Cell>
              <Cell>{p.author}</Cell>
              <Cell mono>{p.commit}</Cell>
              <Cell>
                {p.state}
                {p.approvedBy && <span className="block text-xs text-zinc-500">approved by {p.approvedBy}</span>}
              </Cell>
              <Cell>{p.approvable && <PostButton action={`/api/admin/pull-requests/${p.number}/approve`} label={`Approve run of #${p.number}`} />}</Cell>
            </tr>
          ))}
        </Table>
      )}
    </Section>
  );
}

export function TriggerRun({ view }: { view: AdminView }) {
  return (
    <Section title="Run a blueprint" id="run">
      {view.blueprints.length === 0 ? (
        <Empty>No blueprint to run yet: sync first.</Empty>
      ) : (
        <form method="post" action="/api/admin/runs" className="flex flex-wrap items-end gap-3">
          <div className="flex flex-col text-sm">
            <label htmlFor="run-blueprint">Blueprint</label>
            <select id="run-blueprint" name="blueprintId" required className="mt-1 max-w-md rounded border border-zinc-300 bg-white px-2 py-1.5 dark:border-zinc-700 dark:bg-zinc-900">
              {view.blueprints.map((b) => (
                <option key={b.id} value={b.id}>
                  {b.id} — {b.title}
                </option>
              ))}
            </select>
          </div>
          <button type="submit" className="rounded bg-zinc-900 px-3 py-1.5 text-sm font-medium text-white hover:bg-zinc-700 dark:bg-zinc-100 dark:text-zinc-900">
            Run now
          </button>
        </form>
      )}
    </Section>
  );
}

/** Re-grade a stored run with other judges or the latest rubric: no model is called, the new run links to the old. */
export function RescoreRun({ view }: { view: AdminView }) {
  const finished = view.runs.filter((r) => FinalStatusSchema.safeParse(r.status).success);
  const field = 'mt-1 max-w-md rounded border border-zinc-300 bg-white px-2 py-1.5 dark:border-zinc-700 dark:bg-zinc-900';
  return (
    <Section title="Rescore a run" id="rescore">
      {finished.length === 0 ? (
        <Empty>No finished run to rescore yet.</Empty>
      ) : (
        <form method="post" action="/api/admin/runs/rescore" className="flex flex-wrap items-end gap-3">
          <div className="flex flex-col text-sm">
            <label htmlFor="rescore-run">Run</label>
            <select id="rescore-run" name="runId" required className={field}>
              {finished.map((r) => (
                <option key={r.id} value={r.id}>
                  {r.blueprintId} — {r.id} ({r.status}, {r.when})
                </option>
              ))}
            </select>
          </div>
          <div className="flex flex-col text-sm">
            <label htmlFor="rescore-judges">Judges (comma-separated; empty: the run’s)</label>
            <input id="rescore-judges" name="judges" placeholder="openai:gpt-4.1-mini#standard" className={field} />
          </div>
          <label className="flex items-center gap-1.5 text-sm">
            <input type="checkbox" name="latestRubric" /> with the blueprint’s latest rubric
          </label>
          <button type="submit" className="rounded bg-zinc-900 px-3 py-1.5 text-sm font-medium text-white hover:bg-zinc-700 dark:bg-zinc-100 dark:text-zinc-900">
            Rescore (no model calls)
          </button>
        </form>
      )}
    </Section>
  );
}

export function Jobs({ view }: { view: AdminView }) {
  return (
    <Section title="Jobs" id="jobs">
      <ul aria-label="Runs by status" className="flex flex-wrap gap-2 text-sm">
        {view.runCounts.length === 0 && <li className="text-zinc-600 dark:text-zinc-400">No runs yet.</li>}
        {view.runCounts.map((c) => (
          <li key={c.status} className="rounded bg-zinc-100 px-2 py-1 dark:bg-zinc-800">
            {c.status}: <strong>{c.count}</strong>
          </li>
        ))}
      </ul>
      {view.runs.length > 0 && (
        <Table label="Recent runs" head={['Run', 'Blueprint', 'Trigger', 'Status', 'Calls', 'Cost', 'When']}>
          {view.runs.map((r) => (
            <tr key={r.id}>
              <Cell mono>
                <a href={r.href} className="hover:underline">
                  {r.id}
                </a>
              </Cell>
              <Cell>{r.blueprintId}</Cell>
              <Cell>{r.trigger}</Cell>
              <Cell>
                <span className={r.failed ? 'font-medium text-red-700 dark:text-red-400' : ''}>{r.status}</span>
                {r.error && <span className="block text-xs text-red-700 dark:text-red-400">{r.error}</span>}
              </Cell>
              <Cell>{r.calls}</Cell>
              <Cell>{r.cost}</Cell>
              <Cell>{r.when}</Cell>
            </tr>
          ))}
        </Table>
      )}
      <h3 className="pt-2 text-sm font-semibold">Failed steps</h3>
      {view.failedSteps.length === 0 ? (
        <Empty>No failed job step.</Empty>
      ) : (
        <Table label="Failed steps" head={['Step', 'Run', 'Attempts', 'Error', 'When']}>
          {view.failedSteps.map((s) => (
            <tr key={s.key}>
              <Cell mono>{s.key}</Cell>
              <Cell mono>{s.runId ?? '—'}</Cell>
              <Cell>{s.attempts}</Cell>
              <Cell>{s.error}</Cell>
              <Cell>{s.when}</Cell>
            </tr>
          ))}
        </Table>
      )}
    </Section>
  );
}

export function Costs({ view }: { view: AdminView }) {
  return (
    <Section title="Costs" id="costs">
      <ul aria-label="Cost totals" className="grid gap-3 sm:grid-cols-3">
        {view.costs.map((c) => (
          <li key={c.label} className="rounded border border-zinc-200 p-3 dark:border-zinc-800">
            <span className="block text-xs uppercase text-zinc-500">{c.label}</span>
            <span className="text-xl font-semibold">{c.cost}</span> <span className="text-sm text-zinc-600 dark:text-zinc-400">in {c.runs} runs</span>
          </li>
        ))}
      </ul>
      {view.costByTrigger.length > 0 && (
        <Table label="Cost by trigger, last 30 days" head={['Trigger', 'Runs', 'Cost']}>
          {view.costByTrigger.map((c) => (
            <tr key={c.trigger}>
              <Cell>{c.trigger}</Cell>
              <Cell>{c.runs}</Cell>
              <Cell>{c.cost}</Cell>
            </tr>
          ))}
        </Table>
      )}
    </Section>
  );
}
