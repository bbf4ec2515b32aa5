/**
 * The form view as rendered (server markup of its first render): a file that does not parse
 * says where and offers nothing to edit; one that parses has a labelled field per value.
 */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { FormView } from './form-view';

const render = (yaml: string) => renderToStaticMarkup(createElement(FormView, { yaml, onChange: () => {} }));

describe('the form view', () => {
  it('says where the YAML does not parse, and shows no field', () => {
    const html = render('title: T\nprompts:\n  - prompt: [open\n');
    expect(html).toContain('The YAML does not parse (line 4, column 1');
    expect(html).not.toMatch(/<input|<textarea/);
  });

  it('labels every field of the open first prompt with its point and prompt', () => {
    const html = render('title: T\n---\n- id: a\n  prompt: A?\n  should:\n    - point: Says B\n      weight: 2\n      gate: true\n    - score: How clear?\n      levels: [Muddled, Clear]\n- id: b\n  prompt: C?\n');
    expect(html).toMatch(/aria-label="Title" type="text" class="[^"]*" value="T"/);
    expect(html).toMatch(/aria-label="Weight of point 1 in prompt a" type="number" step="0.1" min="0.1" max="10" class="[^"]*" value="2"/);
    expect(html).toMatch(/aria-label="Gate of point 1 in prompt a" checked=""/);
    expect(html).toContain('aria-label="Levels of point 2 in prompt a"');
    expect(html).toContain('Muddled\nClear</textarea>');
    // the second prompt is closed: its summary only
    expect(html).toContain('<span class="font-mono">b</span>');
    expect(html).not.toContain('in prompt b"');
  });

  it('names alternative paths as the run pages and the check panel do ("Path 1 (OR)"), not by the parser id', () => {
    const html = render('title: T\n---\n- id: a\n  prompt: A?\n  should:\n    - Is kind\n    - - $contains: x\n      - Says why\n    - - $contains: y\n');
    expect(html).toContain('2. function · Path 1 (OR) · line 7');
    expect(html).toContain('4. function · Path 2 (OR) · line 9');
    expect(html).not.toMatch(/should:\d/);
  });
});
