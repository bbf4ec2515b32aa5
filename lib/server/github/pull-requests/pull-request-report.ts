/**
 * The read behind this site's page of a pull request (app/pull-requests/[number]): the stored
 * validation of its latest validated head, every file and every error — the full list the
 * check run and the comment link to when GitHub's length limits cut them short.
 */
import { Prisma } from '@/generated/prisma/client';
import type { Db } from '../../db/client';
import { PullRequestValidationSchema, type PullRequestState, type PullRequestValidation } from './validation';

export interface PullRequestReport {
  number: number;
  title: string;
  author: string;
  headSha: string;
  state: PullRequestState;
  validatedAt: Date;
  validation: PullRequestValidation;
}

/** Null when no head of pull request `number` has been validated here. */
export async function pullRequestReport(db: Db, number: number): Promise<PullRequestReport | null> {
  const row = await db.pullRequest.findFirst({
    where: { number, validation: { not: Prisma.DbNull } },
    orderBy: { updatedAt: 'desc' },
    select: { number: true, title: true, author: true, headSha: true, state: true, updatedAt: true, validation: true },
  });
  if (!row) return null;
  return { number: row.number, title: row.title, author: row.author, headSha: row.headSha, state: row.state as PullRequestState, validatedAt: row.updatedAt, validation: PullRequestValidationSchema.parse(row.validation) };
}
