/**
 * What the crawler and the browser tests rely on, rendered from the view models as the pages
 * render them: every element carrying an α figure shows exactly "α <data-value>" over at least
 * ALPHA_MIN_UNITS items, a thin α shows no figure, the calibration section answers its anchor,
 * and the admin forms post the fields their routes read.
 */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { xoroshiro128plus } from 'pure-rand';
import { ALPHA_MIN_UNITS, calibration, CalibrationFiguresSchema, pairwiseRanking, predictionPoweredMean, type AgreementRow, type CalibrationFigures } from '@/lib/core';
import { adminReviewView, calibrationView, judgedCheckLine, pairwiseBoardView } from '@/lib/views/human-figures-view';
import { AdminReview } from './admin-review';
import { CalibrationSection } from './calibration-section';
import { JudgedCheckLine } from './judged-check-line';
import { PairwiseBoard } from './pairwise-board';

const CAL = calibration(Array.from({ length: 20 }, (_v, i) => ({ probability: (i % 10) / 10 + 0.05, outcome: (i % 3 === 0 ? 1 : 0) as 0 | 1 })));
const row = (rater: string, kind: AgreementRow['kind'], items: number): AgreementRow => ({
  rater,
  kind,
  items,
  labels: items * 2,
  alpha: { value: 0.8125, low: 0.7, high: 0.9 },
  kappa: { value: 0.7, low: 0.6, high: 0.8 },
  bias: { mean: 0.06, low: 0.01, high: 0.11, n: items },
  calibration: CAL,
});
const figures = (rows: AgreementRow[]): CalibrationFigures =>
  CalibrationFiguresSchema.parse({
    kind: 'calibration',
    blueprintId: 'bp',
    labels: 60,
    items: 30,
    reviewers: 3,
    humanAlpha: { value: 0.9, low: 0.8, high: 0.95, items: 4 },
    rows,
    models: [
      { modelId: 'x:a', runId: 'r1', ppi: predictionPoweredMean(Array.from({ length: 40 }, (_v, i) => ({ judge: (i % 4) / 4, human: i % 2 ? (i % 3) / 2 : null, inclusion: 0.5 }))) },
      { modelId: 'x:b', runId: 'r1', ppi: predictionPoweredMean(Array.from({ length: 40 }, (_v, i) => ({ judge: (i % 4) / 4, human: i < 2 ? 1 : null, inclusion: 0.5 }))) },
    ],
    level: 0.95,
    resamples: 1000,
    seed: 1,
  });

/** Every element carrying a figure: its identity, value, units and the text it shows. */
function shownFigures(html: string): { figure: string; value: string; units: number | null; text: string }[] {
  return [...html.matchAll(/<(\w+)([^>]*data-figure="([^"]*)"[^>]*)>(.*?)<\/\1>/g)].map((m) => ({
    figure: m[3]!,
    value: /data-value="([^"]*)"/.exec(m[2]!)?.[1] ?? '',
    units: /data-units="(\d+)"/.test(m[2]!) ? Number(/data-units="(\d+)"/.exec(m[2]!)![1]) : null,
    text: m[4]!.replace(/<[^>]+>/g, ''),
  }));
}

/** The attributes of every `tag` element, whatever their order. */
function tags(html: string, tag: RegExp): Record<string, string>[] {
  return [...html.matchAll(/<(\w+)([^>]*)>/g)].filter((m) => tag.test(m[1]!)).map((m) => Object.fromEntries([...m[2]!.matchAll(/([\w-]+)="([^"]*)"/g)].map((a) => [a[1]!, a[2]!])));
}

describe('the calibration section', () => {
  const html = renderToStaticMarkup(createElement(CalibrationSection, { view: calibrationView(figures([row('panel', 'panel', 30), row('j:one', 'judge', ALPHA_MIN_UNITS - 1)])) }));

  it('answers the anchor the check line links to and heads with the panel’s α', () => {
    expect(html).toContain('id="human-calibration"');
    expect(html.replace(/<[^>]+>/g, '')).toContain('Judges checked against 60 human labels: α 0.81 [0.70–0.90]');
  });

  it('shows every α figure as “α <value>” over at least the minimum of items; the thin judge and people show none', () => {
    const alphas = shownFigures(html).filter((f) => f.figure.startsWith('alpha|'));
    expect(alphas.map((f) => f.figure)).toEqual(['alpha|blueprint=bp|metric=human-vs-panel', 'alpha|blueprint=bp|metric=human-vs-panel']);
    for (const f of alphas) {
      expect(f.text).toBe(`α ${f.value}`);
      expect(f.units).toBeGreaterThanOrEqual(ALPHA_MIN_UNITS);
    }
    expect(html).toContain(`too few labelled items to tell (${ALPHA_MIN_UNITS - 1} items)`);
    expect(html).toContain('too few labelled items to tell (4 items)');
  });

  it('draws the curve with its numbers for a screen reader and in a table, and the models’ scores with their figures', () => {
    expect(html).toMatch(/<svg[^>]*role="img"[^>]*aria-label="Calibration of the panel over 20 items/);
    expect(html).toContain('data-testid="calibration-bins"');
    const scores = shownFigures(html).filter((f) => f.figure.startsWith('score|') || f.figure.startsWith('interval|'));
    for (const f of scores) expect(f.text).toBe(f.value);
    expect(scores.map((f) => f.figure)).toContain('score|run=r1|model=x:a|metric=prediction-powered');
    expect(html).toContain('at least 10 are needed to correct for the judge');
  });

  it('without labels, says so and links to the review pages', () => {
    const empty = renderToStaticMarkup(createElement(CalibrationSection, { view: calibrationView(null) }));
    expect(empty).toContain('href="/review"');
    expect(empty).not.toContain('data-figure');
  });
});

describe('the check line', () => {
  it('links to the calibration section and carries the panel’s α figure', () => {
    const html = renderToStaticMarkup(createElement(JudgedCheckLine, { view: judgedCheckLine(figures([row('panel', 'panel', 30)])) }));
    expect(html).toContain('href="/blueprints/bp#human-calibration"');
    expect(html.replace(/<[^>]+>/g, '')).toBe('judges checked against 60 human labels: α 0.81 [0.70–0.90]');
    expect(shownFigures(html)).toEqual([{ figure: 'alpha|blueprint=bp|metric=human-vs-panel', value: '0.81', units: 30, text: 'α 0.81' }]);
    expect(renderToStaticMarkup(createElement(JudgedCheckLine, { view: judgedCheckLine(null) }))).toBe('');
  });
});

describe('the pairwise board', () => {
  it('shows each model’s rank and band with the board’s figures', () => {
    const ranking = pairwiseRanking(
      Array.from({ length: 10 }, (_v, i) => ({ a: 'x:a', b: 'x:b', outcome: i < 8 ? ('a' as const) : ('b' as const) })),
      xoroshiro128plus(1),
      { resamples: 50 },
    );
    const html = renderToStaticMarkup(
      createElement(PairwiseBoard, { view: pairwiseBoardView({ kind: 'pairwise', ranking, labels: 10, reviewers: 2, blueprints: ['bp'], correlation: null, seed: 1 }) }),
    );
    const figures = shownFigures(html);
    expect(figures.filter((f) => f.figure.startsWith('rank|')).map((f) => [f.figure, f.text])).toEqual([
      ['rank|board=pairs|model=x:a', '1'],
      ['rank|board=pairs|model=x:b', '2'],
    ]);
    for (const f of figures.filter((g) => g.figure.startsWith('band|'))) expect(f.text).toBe(f.value);
    expect(html).toContain('data-testid="rank-band"');
  });
});

describe('the admin section', () => {
  const html = renderToStaticMarkup(createElement(AdminReview, { view: adminReviewView({ blueprints: [], reviewers: [] }, new Date(0)) }));

  it('is the admin page’s #review, with its three forms posting to their routes', () => {
    expect(html).toContain('id="review"');
    expect(tags(html, /^form$/).map((f) => [f.method, f.action])).toEqual([
      ['post', '/api/admin/review/grants'],
      ['post', '/api/admin/review/draws'],
      ['post', '/api/admin/review/remove-labels'],
    ]);
  });

  it('names each field as its route reads it, with the test ids the browser tests use', () => {
    const fields: [string, string][] = [
      ['admin-grant-login', 'login'],
      ['admin-grant-scope', 'scope'],
      ['admin-grant-revoke', 'revoke'],
      ['admin-draw-blueprint', 'blueprintId'],
      ['admin-draw-kind', 'kind'],
      ['admin-draw-expected', 'expectedLabels'],
      ['admin-draw-overlap', 'overlapItems'],
      ['admin-draw-count', 'count'],
      ['admin-remove-login', 'login'],
      ['admin-remove-confirm', 'confirm'],
    ];
    const inputs = tags(html, /^(input|select)$/);
    const named = new Map(inputs.map((i) => [i['data-testid'], i.name]));
    for (const [testId, name] of fields) expect(named.get(testId)).toBe(name);
    for (const testId of ['admin-grant-submit', 'admin-draw-submit', 'admin-remove-submit']) expect(html).toContain(`data-testid="${testId}"`);
    // removing labels cannot be posted without ticking the confirmation
    expect(inputs.find((i) => i.name === 'confirm')).toMatchObject({ type: 'checkbox', required: '' });
  });
});
