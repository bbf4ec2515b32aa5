/**
 * What a crawler of the pages relies on: every element that shows an α number carries
 * data-figure="alpha|…", the number it shows as data-value and its units as data-units, and
 * below ALPHA_MIN_UNITS the line says "too few verdicts to tell" with no α figure and no
 * "not reliable" colour. Rendered from the view models, as the pages render them.
 */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ALPHA_MIN_UNITS, judgeReliability, type JudgedVerdict } from '@/lib/core';
import { modelReliabilityRows, reliabilityLine } from '@/lib/views/judge-reliability-view';
import { JudgeReliabilityByModel, JudgeReliabilityLine } from './judge-reliability';

const verdict = (a: number, b: number): JudgedVerdict => ({
  modelId: 'openai:gpt-4o',
  disagreement: Math.abs(a - b) > 0.5,
  judges: [
    { judge: 'j:one', approach: null, score: a },
    { judge: 'k:two', approach: null, score: b },
  ],
});
const many = (k: number) => Array.from({ length: k }, (_v, i) => verdict(i % 2, i % 3 === 0 ? 1 : i % 2));

/** Every element carrying an α figure: its attributes as written. */
function alphaFigures(html: string): { figure: string; value: string | null; units: number }[] {
  return [...html.matchAll(/<[^>]*data-figure="(alpha\|[^"]*)"[^>]*>/g)].map((m) => ({
    figure: m[1]!,
    value: /data-value="([^"]*)"/.exec(m[0])?.[1] ?? null,
    units: Number(/data-units="(\d+)"/.exec(m[0])?.[1]),
  }));
}

describe('α on the pages carries its figure, its number and its units', () => {
  it('a run’s line: data-figure, data-value as shown, data-units at or above the minimum', () => {
    const line = reliabilityLine(judgeReliability(many(12)), { run: 'run-1' });
    const html = renderToStaticMarkup(createElement(JudgeReliabilityLine, { view: line, label: 'Judges in this run' }));
    const figures = alphaFigures(html);
    expect(figures).toEqual([{ figure: 'alpha|run=run-1', value: line.alphaAttrs!['data-value'], units: 12 }]);
    expect(html).toContain(`α ${line.alphaAttrs!['data-value']}`);
    expect(html).toContain('over 12 units · 12 pairs');
  });

  it('below the minimum: the sentence in the neutral colour, no α figure, no number, no red', () => {
    const line = reliabilityLine(judgeReliability([verdict(0.92, 0.92), verdict(0, 1)]), { run: 'run-1' });
    const html = renderToStaticMarkup(createElement(JudgeReliabilityLine, { view: line }));
    expect(alphaFigures(html)).toEqual([]);
    expect(html).not.toContain('data-figure');
    expect(html).toContain('too few verdicts to tell (2 units)');
    expect(html).not.toMatch(/text-red|not reliable/);
    expect(html.replace(/<[^>]+>/g, '')).not.toMatch(/α\s*[−-]?\d/);
  });

  it('the run page’s table: each model’s α figure names the run and the model; a model with too few verdicts shows none', () => {
    const rows = modelReliabilityRows('run-1', [
      { modelId: 'openai:gpt-4o', reliability: judgeReliability(many(ALPHA_MIN_UNITS)) },
      { modelId: 'openai:gpt-4o-mini', reliability: judgeReliability(many(ALPHA_MIN_UNITS - 1)) },
    ]);
    const html = renderToStaticMarkup(createElement(JudgeReliabilityByModel, { rows }));
    expect(alphaFigures(html)).toEqual([{ figure: 'alpha|run=run-1|model=openai:gpt-4o', value: rows[0]!.line.alphaAttrs!['data-value'], units: ALPHA_MIN_UNITS }]);
    expect(html).toContain(`too few verdicts to tell (${ALPHA_MIN_UNITS - 1} units)`);
  });
});
