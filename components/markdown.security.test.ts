/**
 * Issue 11, Low: a very long unbroken reply froze a reader's tab for 25–54 s. The reply
 * component renders a bounded prefix as Markdown and keeps the whole text behind "Show all",
 * as plain text that may break anywhere.
 */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Markdown, SHOWN_CHARS } from './markdown';

const render = (text: string) => renderToStaticMarkup(createElement(Markdown, { text }));

describe('long replies', () => {
  it('renders at most SHOWN_CHARS of a 2 MB unbroken reply as Markdown, the rest behind "Show all"', () => {
    const reply = `${'x'.repeat(2_000_000)}END`;
    const html = render(reply);
    const [shown, hidden] = html.split('<details');
    expect(shown!.length).toBeLessThan(SHOWN_CHARS + 500);
    expect(hidden).toMatch(/^ data-testid="show-all"><summary[^>]*>Show all 2,000,003 characters<\/summary><pre class="whitespace-pre-wrap break-all">x+END<\/pre><\/details>/);
  });

  it('leaves short replies as they were, and never splits a surrogate pair', () => {
    expect(render('**hi**')).toBe('<div class="markdown "><p><strong>hi</strong></p></div>');
    const emoji = `${'a'.repeat(SHOWN_CHARS - 1)}😀${'b'.repeat(10)}`;
    const shown = render(emoji).split('<details')[0]!;
    expect(shown).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
    expect(shown).toContain('a…');
  });
});
