/** The problems list as rendered (server markup): neutral for an empty draft; a problem's message and hint apart in its text. */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { authorProblems } from '@/lib/views/author-problems';
import { ProblemsList } from './problems-list';

const render = (text: string, empty: boolean) => renderToStaticMarkup(createElement(ProblemsList, { problems: authorProblems(text, 'blueprints/my-blueprint.yml'), checked: true, empty, onJump: () => {} }));
const textOf = (html: string) => html.replace(/<[^>]+>/g, '').replace(/&quot;/g, '"');

describe('the problems list', () => {
  it('opens on an empty draft with a hint, and no error in red', () => {
    const html = render('', true);
    expect(textOf(html)).toBe('Problems none yet: write a blueprint here, or start from an example above');
    expect(html).not.toContain('text-red');
  });

  it('lists a problem with a space between its message and its hint', () => {
    const html = render('title: T\n---\n- prompt: Hi\n  should:\n    - $no_such_fn: x\n', false);
    expect(textOf(html)).toContain('error 5:7 unknown point function "no_such_fn" Use one of the point functions');
  });
});
