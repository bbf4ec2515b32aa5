/**
 * The question a judged point put to its judges, rebuilt from the prompt as stored for the run's
 * version (`version_prompts`): a plain-string point is the five-class scale question about its
 * text, a question point its own question (lib/server/runs/grading/judge.ts does the same). People
 * are asked exactly this question, with the same options, so their labels and the judges'
 * answers are answers to one question.
 */
import { judgeScaleQuestion, parseStored, StoredPointsSchema, type JudgeQuestion, type StoredPoint } from '@/lib/core';
import type { Db } from '../db/client';
import { SEALED_SPLIT } from '../db/queries/sealed';

export function judgeQuestionOf(point: StoredPoint | undefined): JudgeQuestion | null {
  if (!point) return null;
  if (point.kind === 'text') return judgeScaleQuestion(point.text);
  if (point.kind === 'question') return point.question;
  return null;
}

/**
 * The points of the version's prompts `keys`, by prompt key: sealed prompts are left out here
 * as well as in the callers' SQL, so a sealed prompt's question can never be rebuilt for a reviewer.
 */
export async function visiblePoints(db: Db, versionId: string, keys: readonly string[]): Promise<Map<string, StoredPoint[]>> {
  if (keys.length === 0) return new Map();
  const rows = await db.versionPrompt.findMany({
    where: { versionId, promptKey: { in: [...new Set(keys)] }, split: { not: SEALED_SPLIT } },
    select: { promptKey: true, points: true },
  });
  return new Map(rows.map((r) => [r.promptKey, parseStored(StoredPointsSchema, r.points, `version_prompts (${versionId}, ${r.promptKey}).points`)]));
}
