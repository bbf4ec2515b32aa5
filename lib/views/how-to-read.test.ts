import { describe, expect, it } from 'vitest';
import { howToRead, PAGE_READINGS, pageReadings, type ReadingTopic } from './how-to-read';
import { METHODOLOGY, METHODOLOGY_PATH } from './methodology-text';

const TOPICS: ReadingTopic[] = ['score', 'interval', 'band', 'alpha', 'drift', 'passk', 'paired', 'coverage', 'cost'];

describe('how to read this', () => {
  it('links every sentence to a section that exists on the methodology page', () => {
    const anchors = new Set(METHODOLOGY.map((s) => `${METHODOLOGY_PATH}#${s.id}`));
    for (const item of howToRead(TOPICS)) {
      expect(anchors.has(item.href), `${item.topic} → ${item.href}`).toBe(true);
      expect(item.sentence).toMatch(/^[A-Zαp].*\.$/); // one full sentence
    }
  });

  it('explains on every page the score, and wherever the page shows one, α and the interval', () => {
    for (const [page, topics] of Object.entries(PAGE_READINGS)) expect(topics, page).toContain('score');
    for (const page of ['home', 'blueprint', 'run', 'runModel', 'model'] as const) expect(PAGE_READINGS[page]).toContain('alpha');
    // a prompt × model cell shows no α (too few verdicts to tell), so it does not explain one
    expect(PAGE_READINGS.cell).not.toContain('alpha');
    for (const page of ['home', 'blueprint', 'model'] as const) expect(PAGE_READINGS[page]).toEqual(expect.arrayContaining(['band', 'drift']));
    expect(pageReadings('run').map((i) => i.term)).toEqual(['Score', 'Interval', 'Band', 'Judge α', 'pass@k / pass^k', 'Coverage']);
  });

  it('has unique section ids and a title and body for each', () => {
    expect(new Set(METHODOLOGY.map((s) => s.id)).size).toBe(METHODOLOGY.length);
    for (const s of METHODOLOGY) expect(s.body.length, s.id).toBeGreaterThan(0);
  });
});
