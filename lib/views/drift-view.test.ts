import { describe, expect, it } from 'vitest';
import type { DriftCheckRow, DriftList } from '@/lib/server/db/queries/drift';
import { DriftParams, driftCheckView, driftPageView } from './drift-view';

const row = (over: Partial<DriftCheckRow> = {}): DriftCheckRow => ({
  id: 'c1',
  blueprintId: 'demo__x',
  blueprintTitle: 'X',
  modelId: 'openrouter:google/gemini-2.0-flash-001',
  fromRunId: 'r1',
  fromRunAt: new Date('2026-11-22T12:00:00Z'),
  toRunId: 'r2',
  toRunAt: new Date('2026-11-29T12:00:00Z'),
  paired: 13,
  difference: -0.3512,
  ciLow: -0.5204,
  ciHigh: -0.1803,
  mde: 0.2345,
  flagged: true,
  reason: "the interval [−52.0, −18.0] points excludes 0 and reaches the blueprint's MDE of 23.5 points",
  servedModelBefore: 'google/gemini-2.0-flash-001',
  servedModelAfter: 'google/gemini-2.0-flash-001-2026-11-18',
  fingerprintBefore: 'fp_a',
  fingerprintAfter: 'fp_b',
  servedChanged: true,
  moved: [{ promptKey: 'capital of/australia', before: 1, after: 0.25, delta: -0.75 }],
  createdAt: new Date('2026-11-29T13:00:00Z'),
  ...over,
});

describe('drift check view', () => {
  it('reads the change, its interval and the MDE in points, and names the provider’s change', () => {
    const v = driftCheckView(row(), new Map());
    expect(v).toMatchObject({
      statusLabel: 'Drift',
      modelName: 'gemini-2.0-flash-001',
      difference: '−35.1 points',
      interval: '−52.0 to −18.0 points (95%)',
      mde: '±23.5 points',
      prompts: '13 prompts',
      fromLabel: '2026-11-22',
      toLabel: '2026-11-29',
      diffHref: '/runs/r2/diff/r1',
      modelHref: '/models/openrouter%3Agoogle/gemini-2.0-flash-001',
      servedChange: {
        headline: 'The provider changed the model behind the id',
        details: ['served model google/gemini-2.0-flash-001 → google/gemini-2.0-flash-001-2026-11-18', 'fingerprint fp_a → fp_b'],
      },
    });
  });

  it('names its figures: the change of the model between the two runs, and the earlier run’s MDE', () => {
    const v = driftCheckView(row(), new Map());
    expect([v.differenceValue, v.figure]).toEqual(['−35.1', { 'data-figure': 'difference|from=r1|to=r2|model=openrouter:google/gemini-2.0-flash-001', 'data-value': '−35.1' }]);
    expect([v.mdeValue, v.mdeFigure]).toEqual(['23.5', { 'data-figure': 'mde|run=r1', 'data-value': '23.5' }]);
    const none = driftCheckView(row({ difference: null, mde: null }), new Map());
    expect([none.differenceValue, none.figure, none.mdeValue, none.mdeFigure]).toEqual([null, null, null, null]);
  });

  it('links each moved prompt to its cell in both runs', () => {
    const [m] = driftCheckView(row(), new Map()).moved;
    expect(m).toEqual({
      promptKey: 'capital of/australia',
      label: 'capital of/australia',
      change: '100.0 → 25.0 (−75.0)',
      beforeHref: '/runs/r1/prompts/capital%20of%2Faustralia?model=openrouter%3Agoogle%2Fgemini-2.0-flash-001#cell',
      afterHref: '/runs/r2/prompts/capital%20of%2Faustralia?model=openrouter%3Agoogle%2Fgemini-2.0-flash-001#cell',
    });
  });

  it('says what was served when nothing changed, and what is missing when nothing is known', () => {
    const same = driftCheckView(row({ servedChanged: false, flagged: false, servedModelBefore: 'm', servedModelAfter: 'm', fingerprintBefore: 'fp', fingerprintAfter: 'fp' }), new Map());
    expect(same).toMatchObject({ statusLabel: 'No drift', servedChange: null, served: 'served as m, fp in both runs' });
    const unknown = driftCheckView(row({ servedChanged: false, servedModelAfter: null, fingerprintAfter: null, ciLow: null, ciHigh: null, mde: null, difference: null }), new Map());
    expect(unknown).toMatchObject({ served: 'the provider did not say what it served', interval: 'no interval (fewer than two prompts in both runs)', mde: 'no MDE', difference: '—' });
  });
});

describe('drift page view', () => {
  const list: DriftList = { checks: [row()], total: 5, flagged: 1, blueprints: [{ id: 'demo__x', title: 'X' }], models: ['openai:gpt-4o-mini'] };

  it('summarises, offers the filters, and says why a list is empty', () => {
    const v = driftPageView(list, new Map([['openai:gpt-4o-mini', 'GPT-4o mini']]), DriftParams.parse({}));
    expect(v.summary).toBe('1 flagged drift among 5 checks of consecutive scheduled runs.');
    expect(v.filters).toEqual({ blueprint: null, model: null, all: false, blueprints: [{ value: 'demo__x', label: 'X' }], models: [{ value: 'openai:gpt-4o-mini', label: 'GPT-4o mini' }] });
    expect(driftPageView({ ...list, checks: [] }, new Map(), DriftParams.parse({ model: 'm' })).empty).toBe('No flagged drift matches these filters.');
    expect(driftPageView({ ...list, checks: [] }, new Map(), DriftParams.parse({ all: '1' })).empty).toMatch(/^No drift checks yet/);
  });

  it('parses the query leniently', () => {
    expect(DriftParams.parse({ all: 'yes', blueprint: '', model: ['a', 'b'] })).toEqual({ all: false, blueprint: undefined, model: undefined });
    expect(DriftParams.parse({ all: 'on', blueprint: 'demo__x' })).toEqual({ all: true, blueprint: 'demo__x', model: undefined });
  });
});
