/** The demo's script is complete and says what the blueprints ask: checked before any run. */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseBlueprint, type Blueprint } from '@/lib/core';
import { behaviour, DEMO_MODELS, demoRules, LIVE_ROUND, SWAP_ROUND, SWAPPED, SWAPPED_WRONG, wireName } from './demo-models';
import { EVIDENCE, PROMPTS, repliesFor } from './demo-replies';

const dir = new URL('./demo/', import.meta.url);
const files = readdirSync(dir).filter((f) => f.endsWith('.yml'));
const blueprints: Blueprint[] = files.map((f) => {
  const parsed = parseBlueprint(readFileSync(new URL(f, dir), 'utf8'), { file: f });
  if (!parsed.ok) throw new Error(`${f}: ${parsed.errors.map((e) => e.message).join('; ')}`);
  return parsed.blueprint;
});

describe('the demo blueprints and their script', () => {
  it('validate without warnings, and every prompt and judged criterion is scripted', () => {
    expect(files.sort()).toEqual(['coding-help.yml', 'customer-support.yml', 'everyday-answers.yml', 'repeated-answers.yml', 'tool-calls.yml']);
    for (const f of files) {
      const parsed = parseBlueprint(readFileSync(new URL(f, dir), 'utf8'), { file: f });
      expect(parsed.ok && parsed.warnings, f).toEqual([]);
    }
    for (const round of [0, 1, 2, LIVE_ROUND]) expect(demoRules(round, blueprints).length).toBeGreaterThan(100);
    // the repeated blueprint asks four of the other blueprints' questions again: one script each
    const keys = new Set(blueprints.flatMap((b) => b.prompts.map((p) => p.id)));
    expect(PROMPTS.map((p) => p.key).sort()).toEqual([...keys].sort());
  });

  it('the good reply meets every criterion it should and none it should not', () => {
    const byKey = new Map(PROMPTS.map((p) => [p.key, p]));
    for (const prompt of blueprints.flatMap((b) => b.prompts)) {
      const good = repliesFor(byKey.get(prompt.id)!, 'good').at(-1)!.text;
      for (const point of prompt.points.filter((p) => p.kind === 'text')) {
        expect(EVIDENCE[point.text]!.present.test(good), `${prompt.id}: ${point.text}`).toBe(point.source !== 'should_not');
      }
    }
  });

  it('gives each model its character: the strong one always answers well, the cautious one refuses, two wait in the live round', () => {
    const of = (c: string) => DEMO_MODELS.find((m) => m.character === c)!.character;
    for (const p of PROMPTS) {
      expect(behaviour(of('strong'), p, 2)).toBe('good');
      expect(behaviour(of('cautious'), p, 1)).toBe(p.refusal ? 'refuse' : 'good');
      // its provider's new snapshot gets a few facts wrong from the swap round on
      expect(behaviour(of('cautious'), p, SWAP_ROUND)).toBe(p.refusal ? 'refuse' : SWAPPED_WRONG.includes(p.key) ? 'wrong' : 'good');
      expect(behaviour(of('weak'), p, LIVE_ROUND)).toBe('rate_limited');
    }
    expect(new Set(DEMO_MODELS.map((m) => m.id.split(':')[0])).size).toBeGreaterThanOrEqual(3);
  });

  it('changes what the cautious model says it is from the swap round on, and only it', () => {
    const cautious = wireName(DEMO_MODELS.find((m) => m.character === 'cautious')!.id);
    const servedOf = (round: number) => demoRules(round, blueprints).filter((r) => r.servedModel || r.fingerprint);
    expect(servedOf(SWAP_ROUND - 1)).toEqual([]);
    const swapped = servedOf(SWAP_ROUND);
    expect(swapped.length).toBeGreaterThan(10);
    for (const r of swapped) {
      expect(r.model!.test(cautious)).toBe(true);
      expect(r).toMatchObject(SWAPPED);
    }
  });
});
