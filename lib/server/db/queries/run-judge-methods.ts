/**
 * How a run's judges were read, counted over its verdicts: per judge, approach, method, why it
 * was sampled and from how many answers (the fields of the stored judge record,
 * lib/core/evidence/schemas.ts). One grouped statement over the run's verdicts, for the run
 * page's judges line; only those fields are read out of `verdicts.judges`. Counted once when
 * the run is summarised and stored (`runs.judge_methods`).
 */
import { JudgeMethodCountSchema, parseStoredOrNull, StoredJudgeMethodsSchema, type JudgeMethodCount } from '@/lib/core';
import type { Db } from '../client';

export type { JudgeMethodCount };

/** Counted over the run's verdicts: what summarising a finished run stores. */
export async function computeRunJudgeMethods(db: Db, runId: string): Promise<JudgeMethodCount[]> {
  const rows = await db.$queryRaw<unknown[]>`
    SELECT e ->> 'judge' AS judge, e ->> 'approach' AS approach, e ->> 'method' AS method,
           e ->> 'sampledBecause' AS "sampledBecause", (e ->> 'n')::int AS n, count(*)::int AS count
    FROM verdicts v, jsonb_array_elements(v.judges) AS e
    WHERE v.run_id = ${runId} AND v.judges IS NOT NULL AND jsonb_typeof(v.judges) = 'array' AND e ->> 'method' IS NOT NULL
    GROUP BY 1, 2, 3, 4, 5
    ORDER BY 1, 2, 3, 4, 5`;
  return rows.map((r) => {
    const parsed = JudgeMethodCountSchema.safeParse(r);
    if (!parsed.success) throw new Error(`verdicts.judges of run ${runId}: a judge record's method fields do not match the stored judge record: ${parsed.error.message}`);
    return parsed.data;
  });
}

/** A finished run's as stored when it was summarised (one read, whatever its size); a run still going, counted now. */
export async function getRunJudgeMethods(db: Db, runId: string): Promise<JudgeMethodCount[]> {
  const row = await db.run.findUnique({ where: { id: runId }, select: { judgeMethods: true } });
  return parseStoredOrNull(StoredJudgeMethodsSchema, row?.judgeMethods, `runs.judge_methods of run ${runId}`) ?? computeRunJudgeMethods(db, runId);
}
