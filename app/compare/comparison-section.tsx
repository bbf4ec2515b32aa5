/**
 * The comparison of two models, as a page section (the compare page, the blueprint page, the
 * model page): the models to choose from (the board's rows, a cheap query) and, once two are
 * picked, the prompt scores of those two only, in parallel; then the view model and components.
 */
import { getDb } from '@/lib/server/compose/database';
import { leaderboard } from '@/lib/core';
import { leaderboardMinCoverage } from '@/lib/server/compose/site';
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
  // on a leaderboard, the whole board's prompt scores: its bands test every pair at once, and the
  // page says what they make of this pair; a blueprint's comparison needs only the two models'
  const onBoard = scope.kind === 'board' && both !== null;
  const [allRows, picked] = await Promise.all([
    getLeaderboardRows(db),
    both ? getBoard(db, onBoard ? {} : { modelIds: both, blueprintId }) : Promise.resolve({ rows: [], prompts: [] }),
  ]);
  const rows = blueprintId ? allRows.filter((r) => r.blueprintId === blueprintId) : allRows;
  const names = await getModelNames(db, [...new Set(rows.map((r) => r.modelId))]);
  const ranking = onBoard ? leaderboard(picked.rows, { tag: scope.tag, minCoverage: leaderboardMinCoverage(), prompts: picked.prompts }) : null;
  const prompts = both ? picked.prompts.filter((p) => both.includes(p.modelId)) : [];
  const view = compareView({ rows, prompts }, names, scope, { a, b }, form, ranking);
  return (
    <div className="space-y-4" data-testid="comparison-section">
      <CompareForm view={view} fixedA={fixedA} />
      <CompareResult view={view} caption={caption} />
    </div>
  );
}
