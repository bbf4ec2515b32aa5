/**
 * The demo data set readers see on a fresh e2e server (ASSAY_SEED_DEMO=1): two blueprints
 * with different tags (so there is an overall and a per-tag leaderboard), three completed
 * runs of the first (trend, diff), one run still working (live progress), sealed prompts,
 * and one hostile reply (the XSS spec).
 */
import type { Db } from '../client';
import { DEMO_MODELS } from './content';
import { seedBlueprint, type SeededBlueprint } from './seed-run';

export interface SeededDemo {
  support: SeededBlueprint;
  coding: SeededBlueprint;
}

export async function seedDemo(db: Db, now = new Date()): Promise<SeededDemo> {
  const support = await seedBlueprint(db, {
    slug: 'everyday-answers',
    title: 'Everyday answers: health, support and facts',
    description:
      'Everyday questions people ask assistants, graded on **accuracy**, **safety** and **helpfulness**.\n\n' +
      '- Health questions must give safe dosing and point to a pharmacist or doctor.\n' +
      '- Support answers must be actionable.\n\nSee the [Assay documentation](https://example.org/assay) for how points are judged.',
    tags: ['health', 'support', 'facts'],
    prompts: 13,
    models: DEMO_MODELS,
    points: 5,
    completedRuns: 3,
    running: true,
    sealed: 1,
    hostileReply: true,
    seed: 11,
    now,
  });
  const coding = await seedBlueprint(db, {
    slug: 'coding-and-formats',
    title: 'Coding help and structured output',
    description: 'Small programming questions and answers that must follow a format (JSON, Markdown tables).',
    tags: ['coding', 'formatting'],
    prompts: 8,
    models: DEMO_MODELS.slice(0, 4),
    points: 4,
    completedRuns: 2,
    sealed: 1,
    seed: 23,
    now,
  });
  return { support, coding };
}
