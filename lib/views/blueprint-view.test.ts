import { describe, expect, it } from 'vitest';
import type { BlueprintDetail } from '@/lib/server/db/queries/blueprint-detail';
import { blueprintPage } from './blueprint-view';

const detail = (over: Partial<BlueprintDetail> = {}): BlueprintDetail => ({
  id: 'demo__x',
  title: 'X',
  description: 'About **x**',
  tags: ['zeta', 'alpha'],
  author: { name: 'Ann', url: 'javascript:alert(1)' },
  path: 'demo/x.yml',
  promptCount: 3,
  removedAt: null,
  source: { kind: 'github', owner: 'o', repo: 'r', branch: 'main' },
  latestVersion: {
    id: 'v1',
    valid: true,
    validationErrors: [],
    sourceCommit: '0123456789abcdef0123456789abcdef01234567',
    createdAt: new Date(),
    prompts: [{ promptKey: 'p1', position: 0, messages: [{ role: 'user', content: 'Hi' }], pointCount: 2, weight: 1 }],
  },
  visibleCount: 1,
  sealedCount: 2,
  promptPage: 1,
  promptPageSize: 50,
  ...over,
});

describe('blueprint page view', () => {
  it('links the source file at the exact commit and tags to their leaderboards', () => {
    const v = blueprintPage(detail());
    expect(v.sourceLink).toBe('https://github.com/o/r/blob/0123456789abcdef0123456789abcdef01234567/demo/x.yml');
    expect(v.sourceLabel).toBe('demo/x.yml @ 0123456');
    expect(v.tags).toEqual([
      { tag: 'alpha', href: '/?tag=alpha' },
      { tag: 'zeta', href: '/?tag=zeta' },
    ]);
  });

  it('drops an author link that is not http(s)', () => {
    expect(blueprintPage(detail())).toMatchObject({ authorLabel: 'Ann', authorHref: null });
    expect(blueprintPage(detail({ author: { name: 'Bo', url: 'https://bo.example' } })).authorHref).toBe('https://bo.example');
  });

  it('counts sealed prompts without listing them, and links prompts to the latest run', () => {
    const v = blueprintPage(detail(), { latestRunId: 'run9' });
    expect(v.sealedNote).toBe('2 sealed test prompts are scored but not shown.');
    expect(v.prompts).toEqual([{ key: 'p1', href: '/runs/run9/prompts/p1', firstUserText: 'Hi', turns: 1, pointCount: 2, weightLabel: null }]);
    expect(blueprintPage(detail({ sealedCount: 0 })).sealedNote).toBeNull();
  });
});
