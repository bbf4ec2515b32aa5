import { describe, expect, it } from 'vitest';
import type { RecentRun } from '@/lib/server/db/queries/recent-runs';
import { recentRunsView } from './recent-runs-view';

const now = new Date('2026-12-02T12:00:00Z');
const run = (over: Partial<RecentRun>): RecentRun => ({
  id: 'r1',
  status: 'completed',
  trigger: 'manual',
  kind: 'chat',
  createdAt: new Date('2026-12-02T11:00:00Z'),
  finishedAt: new Date('2026-12-02T11:05:00Z'),
  totalCalls: 140,
  doneCalls: 140,
  errorCalls: 0,
  errorVerdicts: 0,
  models: ['openai:a', 'openai:b'],
  blueprint: { id: 'b', title: 'B' },
  ...over,
});

describe('recentRunsView', () => {
  it('counts a chat run in replies and a retrieval run in texts embedded (its counters count texts)', () => {
    const [chat, retrieval] = recentRunsView([run({}), run({ id: 'r2', kind: 'retrieval' })], now);
    expect(chat!.detail).toBe('2 models · 140 replies');
    expect(retrieval!.detail).toBe('2 models · 140 texts embedded');
  });
  it('shows progress of a working run and its errors', () => {
    const [v] = recentRunsView([run({ kind: 'retrieval', status: 'running', doneCalls: 30, errorCalls: 2 })], now);
    expect(v!.detail).toBe('2 models · 30 of 140 texts embedded · 2 errors');
  });
});
