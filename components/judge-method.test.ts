/**
 * The pages say how each judge's answer was read: the verdict names each judge's method and
 * sample count and why it sampled, and a panel that mixes methods says so on the verdict and
 * on the run page's judges line. Rendered from the view models, as the pages render them.
 */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { StoredJudgeRecord } from '@/lib/core';
import { judgePanelView, type RunHeaderView } from '@/lib/views/run-view';
import { runMixedMethodsNote } from '@/lib/views/judge-method-view';
import { verdictView, type VerdictInput } from '@/lib/views/verdict-view';
import { RunHeader } from './run-header';
import { VerdictItem } from './verdict';

const text = (html: string) => html.replace(/<[^>]+>/g, '').replace(/&#x27;/g, "'");

const reasoningJudge: StoredJudgeRecord = {
  judge: 'openai:o4-mini',
  approach: 'standard',
  score: 0.75,
  distribution: { CLASS_MAJORLY_PRESENT: 2 / 3, CLASS_FULLY_PRESENT: 1 / 3 },
  method: 'samples',
  sampledBecause: 'logprobs-refused',
  n: 3,
  reasoning: null,
  error: null,
};
const logprobsJudge: StoredJudgeRecord = { ...reasoningJudge, judge: 'openai:gpt-4o-mini', method: 'logprobs', sampledBecause: undefined, n: undefined };

const verdict = (judges: StoredJudgeRecord[], method: VerdictInput['method']): VerdictInput => ({
  pointIndex: 0,
  status: 'pass',
  score: 0.75,
  kind: 'text',
  pointText: 'Names a specific recipe',
  fn: null,
  weight: 1,
  gate: false,
  path: null,
  source: 'should',
  distribution: null,
  method,
  detail: null,
  reasoning: null,
  judges,
  spread: null,
  disagreement: false,
});

describe('the verdict says how each judge was read', () => {
  it('a reasoning judge: its method, sample count and why it sampled', () => {
    const html = renderToStaticMarkup(createElement(VerdictItem, { v: verdictView(verdict([reasoningJudge], 'samples'), null) }));
    expect(text(html)).toContain('estimated from sampled answers (3 samples per judge)');
    expect(text(html)).toContain('3 samples (sampled: the model refuses log-probabilities)');
    expect(html).not.toContain('data-testid="mixed-methods"');
  });

  it('a panel mixing log-probabilities and samples says so', () => {
    const html = renderToStaticMarkup(createElement(VerdictItem, { v: verdictView(verdict([reasoningJudge, logprobsJudge], null), null) }));
    expect(text(html)).toContain('Judges used different methods: openai:o4-mini 3 samples, openai:gpt-4o-mini log-probabilities.');
    expect(text(html)).toContain('log-probabilities');
  });
});

describe('the run page’s judges line says how each judge was read', () => {
  it('per judge, and a note when the panel mixes methods', () => {
    const methods = [
      { judge: 'openai:o4-mini', approach: 'standard', method: 'samples', sampledBecause: 'logprobs-refused' as const, n: 3, count: 6 },
      { judge: 'openai:gpt-4o-mini', approach: 'standard', method: 'logprobs', sampledBecause: null, n: null, count: 6 },
    ];
    const judges = judgePanelView(
      [
        { model: 'openai:o4-mini', approach: 'standard' },
        { model: 'openai:gpt-4o-mini', approach: 'standard' },
      ],
      [],
      methods,
    );
    const view: RunHeaderView = {
      id: 'r1',
      title: 'Run of 1 Jan 2026',
      blueprintTitle: 'Recipes',
      blueprintHref: '/blueprints/b1',
      statusLabel: 'Completed',
      statusTone: 'ok',
      working: false,
      progressHref: '/runs/r1/progress',
      downloads: [],
      facts: [],
      tabs: [],
      diffChoices: [],
      error: null,
      judges,
      judgeMethodsNote: runMixedMethodsNote(methods),
      warnings: [],
      parent: null,
      rescores: [],
      draftBanner: null,
      waits: [],
    };
    const html = text(renderToStaticMarkup(createElement(RunHeader, { view })));
    expect(html).toContain('openai:o4-mini (standard)3 samples each (the model refuses log-probabilities)');
    expect(html).toContain('openai:gpt-4o-mini (standard)log-probabilities');
    expect(html).toContain('read by different methods');
  });
});
