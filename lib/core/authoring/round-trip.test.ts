/**
 * The form ↔ YAML round trip (issue 16) on every example blueprint and 50 corpus blueprints:
 * parse, edit one point, serialise: only that point's lines change, and the result parses to the
 * same blueprint except that point. An edit to a value's current value leaves the text byte-identical.
 */
/// <reference types="vite/client" />
import { readForm } from './form-model';
import { describe, expect, it } from 'vitest';
import { corpusBlueprints, needsCorpus, WEVAL_CORPUS } from '@/testing/outside-data';
import { editForm } from './form-edits';
import { agreesWithParser, checkPointEdit, modelOf, parsed } from './round-trip.testkit';

// Read through the bundler (the examples) and the test kit (the Weval corpus, outside the
// repository: {} without it): lib/core does no I/O of its own.
const examples = import.meta.glob<string>('../../../blueprints/**/*.yml', { query: '?raw', import: 'default', eager: true });
const corpus = Object.fromEntries(Object.entries(corpusBlueprints()).filter(([file]) => file.endsWith('.yml')));

/** The corpus files the parser rejects (corpus.test.ts lists them with their errors). */
const INVALID = ['eu-ai-act-202401689.yml', 'maternal-health-uttar-pradesh.yml', 'tool-use-native-test.yml'];

/**
 * 50 corpus files, chosen by rule: first the rarer forms (another layout than header + list
 * documents, `should_not`, alternative paths, `multiplier`, `points:`/`expect:` aliases,
 * citations, `$ref`, messages, judge questions), the first two of each in name order, then evenly
 * spaced files until there are 50.
 */
export function corpusSample(files: Record<string, string>): string[] {
  const names = Object.keys(files)
    .filter((k) => !INVALID.some((bad) => k.endsWith(`/${bad}`)))
    .sort();
  const features = [/^prompts:/m, /^\s*should_not:/m, /^\s*-\s+-\s/m, /^\s*multiplier:/m, /^\s*(points|expect|expects):/m, /^\s*citation:/m, /\$ref/, /^\s*messages:/m, /^\s*-\s*(noul|score|choice):/m, /^\s*weight:/m];
  const picked = new Set<string>();
  for (const feature of features) for (const name of names.filter((n) => feature.test(files[n]!)).slice(0, 2)) picked.add(name);
  const rest = names.filter((n) => !picked.has(n));
  const need = 50 - picked.size;
  for (let i = 0; i < need; i++) picked.add(rest[Math.floor((i * rest.length) / need)]!);
  return [...picked].sort();
}

/** The point edited in a file: the middle point of the middle prompt that has points (deterministic). */
function middlePoint(text: string, file: string): { prompt: number; point: number } | null {
  const prompts = modelOf(text, file).view.prompts.map((p, i) => ({ i, points: p.points.filter((pt) => !pt.readOnly).length })).filter((p) => p.points > 0);
  if (prompts.length === 0) return null;
  const p = prompts[Math.floor(prompts.length / 2)]!;
  return { prompt: p.i, point: Math.floor(p.points / 2) };
}

function roundTrip(file: string, text: string) {
  it(`${file}: agrees with the parser`, () => {
    agreesWithParser(modelOf(text, file), parsed(text, file));
  });
  it(`${file}: setting a point's weight changes only that point's lines`, () => {
    const at = middlePoint(text, file);
    if (!at) return expect(modelOf(text, file).view.prompts.every((p) => p.points.length === 0)).toBe(true);
    const current = modelOf(text, file).view.prompts[at.prompt]!.points[at.point]!.weight;
    const weight = current === 2.5 ? 3 : 2.5;
    const { before, edited } = checkPointEdit(text, file, at.prompt, at.point, { op: 'point', ...at, field: 'weight', value: weight });
    expect(edited).toEqual({ ...before, weight });
  });
  it(`${file}: rewriting a judged criterion changes only that point's lines`, () => {
    const model = modelOf(text, file);
    // the first text point of the middle prompt that has one
    const withText = model.view.prompts.filter((p) => p.points.some((pt) => pt.kind === 'text' && !pt.readOnly));
    if (withText.length === 0) return;
    const prompt = withText[Math.floor(withText.length / 2)]!;
    const point = prompt.points.find((pt) => pt.kind === 'text' && !pt.readOnly)!;
    const value = `Edited: ${point.text}`;
    const { before, edited } = checkPointEdit(text, file, prompt.index, point.index, { op: 'point', prompt: prompt.index, point: point.index, field: 'text', value });
    expect(edited).toEqual({ ...before, text: value });
  });
  it(`${file}: an edit to the current value keeps the text byte-identical`, () => {
    const model = modelOf(text, file);
    const title = model.view.header?.title;
    if (title != null) expect(editForm(model, { op: 'header', field: 'title', value: title })).toBe(text);
    for (const [i, p] of model.view.prompts.entries()) {
      for (const pt of p.points) {
        if (pt.weight !== null) expect(editForm(model, { op: 'point', prompt: i, point: pt.index, field: 'weight', value: pt.weight })).toBe(text);
        if (pt.kind === 'text' && pt.text !== null && !pt.readOnly) expect(editForm(model, { op: 'point', prompt: i, point: pt.index, field: 'text', value: pt.text })).toBe(text);
      }
    }
  });
}

describe('every example blueprint', () => {
  const files = Object.keys(examples).sort();
  it('are found', () => expect(files.length).toBeGreaterThanOrEqual(5));
  for (const key of files) {
    const file = key.replace(/^(\.\.\/)+/, '');
    const text = examples[key]!;
    // soev suites and projects are edited in the YAML: the form says so instead of showing an empty blueprint
    if (file.includes('/soev-example/')) {
      it(`${file}: the form leaves this soev file to the YAML and says why`, () => {
        const reading = readForm(text, file);
        expect(reading.ok).toBe(false);
        expect(!reading.ok && 'unsupported' in reading && reading.unsupported).toMatch(/^This is a soev (suite|project)/);
      });
      continue;
    }
    roundTrip(file, text);
    it(`${file}: each point's weight, one at a time`, () => {
      const model = modelOf(text, file);
      for (const [i, p] of model.view.prompts.entries()) {
        for (const pt of p.points) {
          if (pt.readOnly) continue;
          const { before, edited } = checkPointEdit(text, file, i, pt.index, { op: 'point', prompt: i, point: pt.index, field: 'weight', value: 4 });
          expect(edited).toEqual({ ...before, weight: 4 });
        }
      }
    });
  }
});

describe.skipIf(!WEVAL_CORPUS)(needsCorpus('50 corpus blueprints'), () => {
  const sample = WEVAL_CORPUS ? corpusSample(corpus) : [];
  it('are 50 distinct files', () => {
    expect(sample).toHaveLength(50);
    expect(new Set(sample).size).toBe(50);
  });
  for (const file of sample) roundTrip(file, corpus[file]!);
});
