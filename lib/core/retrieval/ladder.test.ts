import { describe, expect, it } from 'vitest';
import { ladderStatus, overallLadder } from './ladder';

const thresholds = { min: { 'ndcg@10': 0.3, 'recall@10': 0.4 }, warnMargin: 0.05 };

describe('the threshold ladder (seed 002)', () => {
  it('fails below min, warns within [min, min + margin), passes from min + margin', () => {
    expect(ladderStatus(0.2999, 'ndcg@10', thresholds)).toBe('fail');
    expect(ladderStatus(0.3, 'ndcg@10', thresholds)).toBe('warn');
    expect(ladderStatus(0.3499, 'ndcg@10', thresholds)).toBe('warn');
    expect(ladderStatus(0.35, 'ndcg@10', thresholds)).toBe('pass');
  });

  it('has no status without a threshold or a value (unscored is not a failure); no margin means no warn band', () => {
    expect(ladderStatus(0.1, 'map', thresholds)).toBeNull();
    expect(ladderStatus(null, 'ndcg@10', thresholds)).toBeNull();
    expect(ladderStatus(Number.NaN, 'ndcg@10', thresholds)).toBeNull();
    expect(ladderStatus(0.5, 'ndcg@10', null)).toBeNull();
    expect(ladderStatus(0.3, 'ndcg@10', { min: { 'ndcg@10': 0.3 }, warnMargin: 0 })).toBe('pass');
  });

  it('a model takes the worst status of its thresholded metrics', () => {
    expect(overallLadder({ 'ndcg@10': 0.5, 'recall@10': 0.42 }, thresholds)).toEqual({ status: 'warn', metrics: { 'ndcg@10': 'pass', 'recall@10': 'warn' } });
    expect(overallLadder({ 'ndcg@10': 0.1, 'recall@10': 0.42 }, thresholds).status).toBe('fail');
    expect(overallLadder({ 'ndcg@10': 0.5 }, thresholds)).toEqual({ status: 'pass', metrics: { 'ndcg@10': 'pass' } });
    expect(overallLadder({}, thresholds).status).toBeNull();
    expect(overallLadder({ 'ndcg@10': 0.5 }, null).status).toBeNull();
  });
});
