/**
 * The comparison of two models, as a page section (the compare page, the blueprint page, the
 * model page): the models to choose from (the board's rows, a cheap query) and, once two are
 * picked, the prompt scores of those two only, in parallel; then the view model and components.
 */
import { getDb } from '@/lib/server/compose/database';
import { leaderboardMinCoverage } from '@/lib/server/compose/site';
import { boardKeyName, boardsFor, type BoardKey } from '@/lib/server/db/commands/board-snapshots';
import { getBoard, getLeaderboardRows, getModelNames } from '@/lib/server/db/queries/leaderboard';
import { compareView, type CompareScope } from '@/lib/views/compare-view';
import { CompareForm } from '@/components/compare-form';
import { CompareResult } from '@/components/compare-result';

export async function ComparisonSection({
  scope,
  a,
  b,
  form,
  fixedA = false,
  caption,
}: {
  scope: CompareScope;
  a?: string | null;
  b?: string | null;
  form: Parameters<typeof compareView>[4];
  fixedA?: boolean;
  caption?: React.ReactNode;
}) {
  const db = getDb();
  const blueprintId = scope.kind === 'blueprint' ? scope.blueprintId : undefined;
  const both = a && b && a !== b ? [a, b] : null;
  const [allRows, picked] = await Promise.all([
    getLeaderboardRows(db),
    both ? getBoard(db, { modelIds: both, blueprintId }) : Promise.resolve({ rows: [], prompts: [] }),
  ]);
  const rows = blueprintId ? allRows.filter((r) => r.blueprintId === blueprintId) : allRows;
  const names = await getModelNames(db, [...new Set(rows.map((r) => r.modelId))]);
  // on a leaderboard, the board as stored: its bands test every pair at once, and the page says
  // what they make of this pair
  const key: BoardKey | null = scope.kind === 'board' && both ? (scope.tag ? { kind: 'tag', tag: scope.tag } : { kind: 'all' }) : null;
  const ranking = key ? ((await boardsFor(db, [key], allRows, { minCoverage: leaderboardMinCoverage() })).get(boardKeyName(key)) ?? null) : null;
  const prompts = picked.prompts;
  const view = compareView({ rows, prompts }, names, scope, { a, b }, form, ranking);
  return (
    <div className="space-y-4" data-testid="comparison-section">
      <CompareForm view={view} fixedA={fixedA} />
      <CompareResult view={view} caption={caption} />
    </div>
  );
}
