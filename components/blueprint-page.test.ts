/**
 * The blueprint pages as rendered (server markup): a number and the label beside it stay apart
 * in the page's text ("2 weight 3", not "2weight 3"), not only on screen by a margin.
 */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { BlueprintPageView } from '@/lib/views/blueprint-view';
import { paginationView } from '@/lib/views/pagination';
import { BlueprintList } from './blueprint-list';
import { PromptTable } from './blueprint-page';

/** The text a reader copies or a screen reader reads: the markup without its tags. */
const textOf = (html: string) => html.replace(/<[^>]+>/g, '');

describe('text of the blueprint pages', () => {
  it("keeps a prompt's point count apart from its weight, and the headers apart", () => {
    // only what PromptTable reads of the page's view
    const view = {
      sealedNote: null,
      prompts: [{ key: 'p1', href: null, firstUserText: 'Hello?', turns: 1, pointCount: 2, weightLabel: 'weight 3' }],
      promptPagination: paginationView(1, 20, 1, 'prompts', (n) => `/blueprints/b?page=${n}`),
    } as unknown as BlueprintPageView;
    const html = renderToStaticMarkup(createElement(PromptTable, { view }));
    const cells = [...html.matchAll(/<td[^>]*>(.*?)<\/td>/g)].map((m) => textOf(m[1]!));
    expect(cells).toEqual(['p1', 'Hello?', '1', '2 weight 3']);
    // the headers too, as a text extraction reads them
    expect(textOf(/<thead.*<\/thead>/.exec(html)![0]).trim()).toBe('Id Prompt Turns Points');
  });

  it("keeps a card's prompt count apart from its error count", () => {
    const html = renderToStaticMarkup(createElement(BlueprintList, { items: [{ id: 'b', href: '/blueprints/b', title: 'B', description: null, tags: [], promptCountLabel: '3 prompts', errorLabel: 'invalid (1 error)' }] }));
    expect(textOf(html)).toContain('3 prompts invalid (1 error)');
  });
});
