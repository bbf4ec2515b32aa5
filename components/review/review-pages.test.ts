/**
 * The review pages as rendered (server markup): every action a real form a browser can post
 * without JavaScript, the test ids the browser journey drives, and a reply shown as text.
 */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { judgeOptions, judgeStatement, type JudgeQuestion } from '@/lib/core';
import { reviewItemPage, reviewPairPage } from '@/lib/views/review-view';
import { ReviewItemPage } from './review-item';
import { ReviewPairPage } from './review-pair';

const question: JudgeQuestion = { type: 'noul', statement: 'The reply is polite.' };
const item = {
  itemId: 'item-7',
  blueprintTitle: 'Manners',
  conversation: [{ role: 'user' as const, content: 'Say hi' }],
  reply: 'Hi!\n<script>alert(1)</script><img src=x>',
  question,
  statement: judgeStatement(question),
  options: judgeOptions(question),
};

/** The posted forms of a page: their test id, where they post, and their hidden fields. */
function formsOf(html: string) {
  const attr = (tag: string, name: string) => new RegExp(`${name}="([^"]*)"`).exec(tag)?.[1];
  return [...html.matchAll(/<form([^>]*)>(.*?)<\/form>/g)]
    .filter((m) => attr(m[1]!, 'method') === 'post')
    .map((m) => ({
      testId: attr(m[1]!, 'data-testid'),
      action: attr(m[1]!, 'action'),
      fields: Object.fromEntries([...m[2]!.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)"\/>/g)].map((f) => [f[1], f[2]])),
    }));
}

describe('the verdict page as rendered', () => {
  const html = renderToStaticMarkup(createElement(ReviewItemPage, { view: reviewItemPage({ blueprintId: 'bp', item, answeredToday: 2, fallbackTitle: 'bp' }), error: 'That item was already answered.' }));

  it('posts each option, skip, the flags and undo as plain forms with the journey’s test ids', () => {
    expect(formsOf(html)).toEqual([
      { testId: 'review-option-1', action: '/api/review/items/item-7', fields: { action: 'label', answer: 'false' } },
      { testId: 'review-option-2', action: '/api/review/items/item-7', fields: { action: 'label', answer: 'true' } },
      { testId: 'review-skip', action: '/api/review/items/item-7', fields: { action: 'skip' } },
      { testId: 'review-flag-bad-question', action: '/api/review/items/item-7', fields: { action: 'flag', flag: 'bad-question' } },
      { testId: 'review-flag-unreadable-reply', action: '/api/review/items/item-7', fields: { action: 'flag', flag: 'unreadable-reply' } },
      { testId: 'review-undo', action: '/api/review/undo', fields: { blueprintId: 'bp', kind: 'verdicts' } },
    ]);
    expect(html).toContain('data-item-id="item-7"');
    expect(html).not.toContain('autofocus');
  });

  it('shows the reply as text: its markup escaped, never elements', () => {
    expect(html).toContain('Hi!\n&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x&gt;');
    expect(html).not.toContain('<script');
    expect(html).not.toContain('<img');
  });

  it('shows the progress, the error banner and the key help', () => {
    expect(html).toContain('Answered today: 2');
    expect(html).toMatch(/data-testid="error-banner"[^>]*>That item was already answered\.</);
    expect(html).toContain('data-testid="review-key-help"');
  });

  it('with nothing waiting: the notice, the link to pairs, and undo still there', () => {
    const empty = renderToStaticMarkup(createElement(ReviewItemPage, { view: reviewItemPage({ blueprintId: 'bp', item: null, answeredToday: 0, fallbackTitle: 'Manners' }), error: null }));
    expect(empty).toContain('Nothing waiting: every drawn item has its labels.');
    expect(empty).toContain('href="/review/bp/pairs"');
    expect(formsOf(empty).map((f) => f.testId)).toEqual(['review-undo']);
    expect(empty).not.toContain('data-testid="error-banner"');
  });
});

describe('the pair page as rendered', () => {
  const pair = { pairId: 'pair-3', blueprintTitle: 'Manners', conversation: [{ role: 'user' as const, content: 'Say hi' }], replyA: 'Hello', replyB: 'Yo' };
  const html = renderToStaticMarkup(createElement(ReviewPairPage, { view: reviewPairPage({ blueprintId: 'bp', pair, answeredToday: 0, fallbackTitle: 'bp' }), error: null }));

  it('posts A, B, tie, skip, the flags and undo as plain forms', () => {
    expect(formsOf(html).map((f) => [f.testId, f.fields.action, f.fields.answer ?? f.fields.flag ?? f.fields.kind])).toEqual([
      ['pair-a', 'label', 'a'],
      ['pair-b', 'label', 'b'],
      ['pair-tie', 'label', 'tie'],
      ['pair-skip', 'skip', undefined],
      ['pair-flag-bad-question', 'flag', 'bad-question'],
      ['pair-flag-unreadable-reply', 'flag', 'unreadable-reply'],
      ['pair-undo', undefined, 'pairs'],
    ]);
    expect(html).toContain('data-pair-id="pair-3"');
    expect(html).toMatch(/data-testid="pair-reply-a"[^>]*><div[^>]*>Hello</);
    expect(html).toMatch(/data-testid="pair-reply-b"[^>]*><div[^>]*>Yo</);
  });
});
