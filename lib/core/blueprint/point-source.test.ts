import { describe, expect, it } from 'vitest';
import { parsePointSource } from './point-source';

const read = (text: string) => parsePointSource(text, { file: 'point' });

describe('parsePointSource: one point, read as an item of `should:`', () => {
  it('reads every point form', () => {
    expect(read('$contains: deadline')).toMatchObject({ ok: true, points: [{ kind: 'function', fn: 'contains', args: 'deadline', path: null, source: 'should' }] });
    expect(read('"$icontains: \'(A)\'"')).toMatchObject({ ok: true, points: [{ kind: 'function', fn: 'icontains', args: '(A)' }] });
    expect(read('Mentions the deadline')).toMatchObject({ ok: true, points: [{ kind: 'text', text: 'Mentions the deadline' }] });
    expect(read('{ point: Mentions it, weight: 2, gate: true }')).toMatchObject({ ok: true, points: [{ kind: 'text', weight: 2, gate: true }] });
    expect(read('noul: Every figure is sourced')).toMatchObject({ ok: true, points: [{ kind: 'question', question: { type: 'noul' } }] });
    expect(read('{"fn": "not_contains", "arg": "x"}')).toMatchObject({ ok: true, points: [{ kind: 'function', fn: 'not_contains', args: 'x' }] });
  });

  it('reads a nested list as an alternative path (with the loader\'s warning about a lone path)', () => {
    const result = read('- $contains: a\n- Mentions b\n');
    expect(result).toMatchObject({ ok: true, points: [{ path: 'should:0' }, { path: 'should:0' }] });
    expect(result.warnings.map((w) => w.code)).toEqual(['suspicious']);
  });

  it('reports errors with positions in the point text', () => {
    expect(read('$contans: x')).toMatchObject({ ok: false, errors: [{ file: 'point', line: 1, col: 1, code: 'unknown_function' }] });
    expect(read('$matches: "("')).toMatchObject({ ok: false, errors: [{ line: 1, col: 11, code: 'invalid_regex' }] });
    expect(read('$ref: scoreBand')).toMatchObject({ ok: false, errors: [{ code: 'unknown_ref' }] });
    expect(read('a\n---\nb\n')).toMatchObject({ ok: false, errors: [{ line: 3, code: 'schema' }] });
    expect(read('')).toMatchObject({ ok: false, errors: [{ code: 'empty' }] });
  });
});
