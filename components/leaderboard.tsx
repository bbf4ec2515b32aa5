import Link from 'next/link';
import type { BoardJudgesView, LeaderboardEntryView, LeaderboardView, TagChipView } from '@/lib/views/leaderboard-view';
import { RankBand } from './rank-band';
import { ColumnHeaders, ErrorsCell, RANKING_COLUMNS, RankingCells } from './score-cells';
import { link, muted } from './ui';

export function TagChips({ tags, overallHref, overallActive }: { tags: TagChipView[]; overallHref: string; overallActive: boolean }) {
  if (tags.length === 0) return null;
  const chip = (active: boolean) =>
    `inline-block rounded-full border px-2.5 py-0.5 text-sm ${active ? 'border-zinc-900 bg-zinc-900 text-white dark:border-zinc-100 dark:bg-zinc-100 dark:text-zinc-900' : 'border-zinc-300 hover:border-zinc-500 dark:border-zinc-700'}`;
  return (
    <nav aria-label="Leaderboard by tag">
      <ul className="flex flex-wrap gap-1.5">
        <li>
          <Link href={overallHref} aria-current={overallActive ? 'page' : undefined} className={chip(overallActive)}>
            Overall
          </Link>
        </li>
        {tags.map((t) => (
          <li key={t.tag}>
            <Link href={t.href} aria-current={t.active ? 'page' : undefined} className={chip(t.active)}>
              {t.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** What an empty Assay shows instead of a leaderboard: the two ways to get data. */
export function GettingStarted() {
  const code = 'block overflow-x-auto rounded bg-zinc-100 px-3 py-2 font-mono text-xs text-zinc-900 dark:bg-zinc-900 dark:text-zinc-100';
  return (
    <div className="space-y-3 rounded border border-dashed border-zinc-300 p-6 text-sm dark:border-zinc-700" data-testid="getting-started">
      <p className="font-medium">No completed runs yet: nothing to rank.</p>
      <p className={muted}>See the pages with demo runs (made by the real pipeline against the fake provider):</p>
      <code className={code}>ASSAY_SEED_DEMO=1 npm run dev</code>
      <p className={muted}>Or make a first run yourself against the fake provider (no API key needed), then reload this page:</p>
      <code className={code}>
        npm run fake-llm
        <br />
        ASSAY_LLM_BASE_URL=http://127.0.0.1:4010/v1 npx assay run blueprints/examples/pasta-alternative-paths.yml --judges openai:judge-a,openai:judge-b
      </code>
      <p className={muted}>
        With provider keys in the environment (OPENAI_API_KEY, OPENROUTER_API_KEY, …), <code className="font-mono">npx assay run BLUEPRINT</code> calls the real models.
      </p>
    </div>
  );
}

const READING_TONE = {
  reliable: 'text-emerald-800 dark:text-emerald-300',
  tentative: 'text-amber-800 dark:text-amber-300',
  unreliable: 'text-red-800 dark:text-red-300',
} as const;

/**
 * α and its reading, a ⚠ when a judge is of the model's own maker, what α rests on and the
 * disagreement share beneath; coverage in the title. Below the minimum of verdicts the cell says
 * "too few verdicts to tell (n units)" in the neutral colour and carries no α figure.
 */
function JudgesCell({ judges }: { judges: BoardJudgesView | null }) {
  if (!judges) {
    return (
      <td className={`py-2 pr-3 text-xs ${muted}`} data-testid="board-judges" title="No judged points behind this score">
        —
      </td>
    );
  }
  return (
    <td className="py-2 pr-3 text-xs" data-testid="board-judges" title={judges.coverageTitle}>
      <Link href={judges.methodologyHref} prefetch={false} className={`tabular-nums ${judges.alphaAttrs ? `font-semibold ${link}` : muted}`} data-testid="judge-alpha" {...(judges.alphaAttrs ?? {})}>
        {judges.alphaLabel}
      </Link>{' '}
      <span className={judges.reading ? READING_TONE[judges.reading] : muted}>{judges.readingLabel}</span>
      {judges.selfJudging && (
        <span role="img" aria-label={judges.selfJudging} title={judges.selfJudging} className="ml-1 cursor-help text-amber-900 dark:text-amber-200" data-testid="self-judging-mark">
          ⚠
        </span>
      )}
      {judges.basisLabel && <span className={`block tabular-nums ${muted}`}>{judges.basisLabel}</span>}
      {judges.disagreementLabel && <span className={`block tabular-nums ${muted}`}>{judges.disagreementLabel}</span>}
    </td>
  );
}

function Rows({ entries, why = false }: { entries: (LeaderboardEntryView & { why?: string })[]; why?: boolean }) {
  return (
    <tbody>
      {entries.map((e) => (
        <tr key={e.modelId} className="border-b border-zinc-100 dark:border-zinc-900" data-testid={why ? 'leaderboard-unranked-row' : 'leaderboard-row'}>
          <RankingCells entry={e} scoreTestId="score" />
          <td className="py-2 pr-3">
            <RankBand label={e.bandLabel} tied={e.tied} figure={e.figures.band} href={e.bandHref} />
          </td>
          <td className="py-2 pr-3 text-right tabular-nums" data-testid="blueprint-coverage">
            {e.blueprintsLabel}
            {why && e.why && <span className={`block text-xs ${muted}`}>{e.why}</span>}
          </td>
          <td className={`py-2 pr-3 text-xs ${muted}`} data-testid="verdict-coverage">
            {e.verdictCoverageLabel}
          </td>
          <JudgesCell judges={e.judges} />
          <td className="py-2 pr-3 text-right text-xs tabular-nums" data-testid="cost-per-prompt">
            {e.costLabel}
          </td>
          <td className="py-2 pr-3 text-right text-xs tabular-nums" data-testid="latency">
            {e.latencyLabel}
          </td>
          <ErrorsCell errors={e.errors} />
          <td className="py-2 pl-3 text-xs">
            {e.compareWithLeaderHref && (
              <Link href={e.compareWithLeaderHref} prefetch={false} className={link} data-testid="compare-with-leader">
                vs leader
              </Link>
            )}
          </td>
        </tr>
      ))}
    </tbody>
  );
}

/** The same column widths for the ranked table and the models listed apart, so they line up. */
function Widths() {
  return (
    <colgroup>
      {['w-12', 'w-[14%]', 'w-16', 'w-[18%]', 'w-24', 'w-20', 'w-[10%]', 'w-24', 'w-16', 'w-16', 'w-14', 'w-20'].map((w, i) => (
        <col key={i} className={w} />
      ))}
    </colgroup>
  );
}

const COLUMNS = [
  ...RANKING_COLUMNS,
  { label: 'Band' },
  { label: 'Blueprints scored', right: true },
  { label: 'Verdict coverage' },
  { label: 'Judges α' },
  { label: 'Cost / prompt', right: true },
  { label: 'Latency p50', right: true },
  { label: 'Errors', right: true },
  { label: 'Compare' },
];

/** A ranking of models: score, 95% interval (numbers and a bar), blueprint and verdict coverage, the judges' α, errors; then the models listed apart. */
export function LeaderboardTable({ view, testId = 'leaderboard' }: { view: LeaderboardView; testId?: string }) {
  if (view.entries.length === 0 && view.unranked.length === 0) return <GettingStarted />;
  return (
    <div className="space-y-6">
      {/* the explanation sits outside the box that scrolls sideways, so a phone wraps it at its own width */}
      <div className={`max-w-4xl space-y-1 text-sm ${muted}`} id={`${testId}-about`}>
        <p>{view.caption}</p>
        {view.bandsCaption && <p>{view.bandsCaption}</p>}
      </div>
      <p className={`text-xs sm:hidden ${muted}`} data-testid="leaderboard-scroll-cue">
        The table has {COLUMNS.length} columns: scroll it sideways for bands, coverage, judges, cost and errors →
      </p>
      <div className="scroll-cue relative overflow-x-auto" tabIndex={0} role="region" aria-label="Leaderboard, scrolls sideways">
        <table className="w-full min-w-[69rem] table-fixed text-left text-sm" data-testid={testId} aria-describedby={`${testId}-about`}>
          <caption className="sr-only">{view.title}</caption>
          <Widths />
          <ColumnHeaders columns={COLUMNS} />
          <Rows entries={view.entries} />
        </table>
        {view.entries.length === 0 && <p className={`mt-2 text-sm ${muted}`}>No model has a score on enough blueprints to be ranked.</p>}
      </div>
      {view.unranked.length > 0 && (
        <div className="space-y-2">
          <p className={`max-w-4xl text-sm ${muted}`} id={`${testId}-unranked-about`}>
            {view.unrankedCaption}
          </p>
          <div className="scroll-cue relative overflow-x-auto" tabIndex={0} role="region" aria-label="Models listed apart, scrolls sideways">
          <table className="w-full min-w-[69rem] table-fixed text-left text-sm" data-testid={`${testId}-unranked`} aria-describedby={`${testId}-unranked-about`}>
            <caption className="sr-only">Models listed apart</caption>
            <Widths />
            <ColumnHeaders columns={COLUMNS} />
            <Rows entries={view.unranked} why />
          </table>
          </div>
        </div>
      )}
    </div>
  );
}
