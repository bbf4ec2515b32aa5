/**
 * The round-trip check of the form's edits, shared by the example and corpus tests: an edit of one
 * point changes only that point's lines, and the text still parses to the same blueprint except
 * that point (and, for a prompt without an `id`, its hash id, which hashes the points).
 */
import { expect } from 'vitest';
import { parseBlueprint, type Blueprint } from '../blueprint';
import { editForm, type FormEdit } from './form-edits';
import { readForm, type FormModel } from './form-model';

export function modelOf(text: string, file: string): FormModel {
  const reading = readForm(text, file);
  if (!reading.ok) throw new Error('unsupported' in reading ? `${file}: ${reading.unsupported}` : `${file}: ${reading.message} at ${reading.line}:${reading.col}`);
  return reading.model;
}

export function parsed(text: string, file: string): Blueprint {
  const r = parseBlueprint(text, { file });
  if (!r.ok) throw new Error(r.errors.map((e) => `${e.file}:${e.line}:${e.col}: ${e.message}`).join('\n'));
  return r.blueprint;
}

/** Locations shift when an edit adds lines; they are compared separately. */
export function withoutLocs<T>(value: T): T {
  return JSON.parse(JSON.stringify(value, (k, v) => (k === 'loc' ? undefined : v)));
}

/** Lines outside [from, to] (1-based, of the old text) are unchanged, whatever the edit did inside. */
export function changedOnly(before: string, after: string, from: number, to: number): void {
  const a = before.split('\n');
  const b = after.split('\n');
  const tail = a.length - to;
  expect(b.slice(0, from - 1)).toEqual(a.slice(0, from - 1));
  expect(b.length).toBeGreaterThanOrEqual(from - 1 + tail);
  expect(b.slice(b.length - tail)).toEqual(a.slice(a.length - tail));
}

/** The view agrees with the parser: the same prompt ids, the same number of points, points where the parser places them. */
export function agreesWithParser(model: FormModel, blueprint: Blueprint): void {
  expect(model.view.prompts.map((p) => p.id)).toEqual(blueprint.prompts.map((p) => p.id));
  model.view.prompts.forEach((p, i) => {
    const q = blueprint.prompts[i]!;
    expect(p.points.map((pt) => [pt.path, pt.line])).toEqual(q.points.map((pt) => [pt.path, pt.loc?.line]));
    expect(p.line).toBe(q.loc?.line);
  });
}

/**
 * Applies `edit` to point `point` of prompt `prompt`, checks the line diff and the re-parse, and
 * returns the edited point as the parser reads it.
 */
export function checkPointEdit(text: string, file: string, prompt: number, point: number, edit: FormEdit) {
  const model = modelOf(text, file);
  const before = parsed(text, file);
  const view = model.view.prompts[prompt]!.points[point]!;
  const after = editForm(model, edit);
  expect(after).not.toBe(text);
  changedOnly(text, after, view.line, view.endLine);
  const edited = parsed(after, file);
  const expected = withoutLocs(before);
  const got = withoutLocs(edited);
  const editedPoint = got.prompts[prompt]!.points[point]!;
  // everything but the edited point is as it was
  got.prompts[prompt]!.points[point] = expected.prompts[prompt]!.points[point]!;
  if (before.prompts[prompt]!.idSource === 'hash') {
    expect(edited.prompts[prompt]!.idSource).toBe('hash');
    got.prompts[prompt]!.id = expected.prompts[prompt]!.id;
  }
  expect(got).toEqual(expected);
  return { after, before: expected.prompts[prompt]!.points[point]!, edited: editedPoint };
}
