/**
 * The check panel's rows as rendered (server markup): points and OR paths worded as the run pages
 * word them, and each part apart from the next in the page's text, not only on screen.
 */
import { readFileSync } from 'node:fs';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { checkReply, draftPrompts } from '@/lib/views/check-view';
import { CheckResultRow } from './check-panel';

const PASTA = readFileSync(new URL('../../blueprints/examples/pasta-alternative-paths.yml', import.meta.url), 'utf8');
const noSandbox = async () => null;
/** Each cell's text as a reader copies it or a screen reader reads it: the markup without its tags. */
const cellsOf = (html: string) => [...html.matchAll(/<td[^>]*>(.*?)<\/td>/g)].map((m) => m[1]!.replace(/<[^>]+>/g, '').replace(/&quot;/g, '"'));

describe('the check panel rows', () => {
  it('say "$contains: pasta", "Path 1 (OR)" and "Must not:", never a parser id, with spaces between the parts', async () => {
    const d = draftPrompts(PASTA, 'blueprints/examples/pasta-alternative-paths.yml');
    if (!d.ok) throw new Error(d.message);
    const texts = async (id: string, reply: string) =>
      (await checkReply(d.byId.get(id)!, reply, noSandbox)).map((row) => cellsOf(renderToStaticMarkup(createElement('table', null, createElement('tbody', null, createElement(CheckResultRow, { row }))))));
    const dinner = await texts('pasta-dinner', 'Try this pasta.');
    expect(dinner[3]).toEqual(['$contains: pasta Path 1 (OR)', 'pass', 'contains "pasta": yes']);
    expect(dinner[0]).toEqual(['Is friendly and on topic', 'needs a judge', 'Needs a judge: an LLM grades this point. "Try it" grades it.']);
    expect(dinner.flat().join('\n')).not.toMatch(/should:\d|contains\(/);
    const swap = await texts('vegan-swap', 'Use tofu, no pancetta.');
    expect(swap.at(-1)!.slice(0, 2)).toEqual(['Must not: $icontains_word: pancetta', 'fail']);
  });
});
