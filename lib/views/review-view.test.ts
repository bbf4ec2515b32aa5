import { describe, expect, it } from 'vitest';
import { judgeOptions, judgeStatement, ShownPairSchema, ShownReviewItemSchema, type JudgeQuestion, type ShownPair, type ShownReviewItem } from '@/lib/core';
import { keyOutcome, LONG_REPLY_CHARS, reviewHomeRows, reviewItemPage, reviewPairPage, reviewSignInView, type KeyMap, type KeyPress } from './review-view';
import type { SignInSettings } from './sign-in-view';

// The shown shapes are parsed with their stored schemas and the question is put as the judge
// put it (judgeStatement, judgeOptions), so a change to either breaks this test, not the page.
const question: JudgeQuestion = { type: 'noul', statement: 'The reply names the deposit scheme.' };
const item: ShownReviewItem = ShownReviewItemSchema.parse({
  itemId: 'item/1',
  blueprintTitle: 'Tenancy advice',
  conversation: [
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: 'Can my landlord keep the deposit?' },
    { role: 'assistant', content: null },
    { role: 'user', content: 'And in Scotland?' },
  ],
  reply: 'Line one\n<b>not bold</b>',
  question,
  statement: judgeStatement(question),
  options: judgeOptions(question),
});

const pair: ShownPair = ShownPairSchema.parse({ pairId: 'p1', blueprintTitle: 'Tenancy advice', conversation: [{ role: 'user', content: 'Hi' }], replyA: 'A reply', replyB: 'B reply' });

const press = (key: string, over: Partial<KeyPress> = {}): KeyPress => ({ key, ctrlKey: false, metaKey: false, altKey: false, repeat: false, typing: false, ...over });

describe('the verdict page', () => {
  const page = reviewItemPage({ blueprintId: 'bp 1', item, answeredToday: 3, fallbackTitle: 'bp 1' });

  it('numbers the options in the judge’s order; each form posts the option’s stored label', () => {
    expect(page.body?.options).toEqual([
      { testId: 'review-option-1', action: '/api/review/items/item%2F1', fields: { action: 'label', answer: 'false' }, label: 'False: the statement does not hold for the text.', keyHint: '1' },
      { testId: 'review-option-2', action: '/api/review/items/item%2F1', fields: { action: 'label', answer: 'true' }, label: 'True: the statement holds for the text.', keyHint: '2' },
    ]);
  });

  it('maps 1–9, S and U to their forms, and the flags to F then 1 or 2', () => {
    expect(page.keys).toEqual({
      direct: { '1': 'review-option-1', '2': 'review-option-2', s: 'review-skip', u: 'review-undo' },
      flag: { '1': 'review-flag-bad-question', '2': 'review-flag-unreadable-reply' },
    });
    expect(page.body?.flags.map((f) => f.fields)).toEqual([
      { action: 'flag', flag: 'bad-question' },
      { action: 'flag', flag: 'unreadable-reply' },
    ]);
    expect(page.undo).toMatchObject({ testId: 'review-undo', action: '/api/review/undo', fields: { blueprintId: 'bp 1', kind: 'verdicts' } });
  });

  it('labels every turn with its role, keeps a turn without text as null, and keeps the reply as plain text', () => {
    expect(page.body?.turns).toEqual([
      { roleLabel: 'System', text: 'Be brief.', long: false },
      { roleLabel: 'User', text: 'Can my landlord keep the deposit?', long: false },
      { roleLabel: 'Assistant', text: null, long: false },
      { roleLabel: 'User', text: 'And in Scotland?', long: false },
    ]);
    expect(page.body?.reply).toEqual({ text: 'Line one\n<b>not bold</b>', long: false });
    expect(reviewItemPage({ blueprintId: 'b', item: { ...item, reply: 'x'.repeat(LONG_REPLY_CHARS + 1) }, answeredToday: 0, fallbackTitle: 'b' }).body?.reply.long).toBe(true);
  });

  it('says the progress, the blueprint’s title, the key help and links to the pairs', () => {
    expect(page.title).toBe('Tenancy advice');
    expect(page.progress).toBe('Answered today: 3');
    expect(page.other.href).toBe('/review/bp%201/pairs');
    expect(page.help.map((h) => h.keys)).toEqual(['1–2', 'S', 'F then 1', 'F then 2', 'Esc', 'U', '?']);
    expect(page.flagPrompt).toBe('Flag: press 1 for “bad question”, 2 for “unreadable reply”; Esc cancels.');
  });

  it('gives only the first nine options a key', () => {
    const options = Array.from({ length: 11 }, (_, i) => ({ label: `o${i}`, text: `Option ${i}` }));
    const many = reviewItemPage({ blueprintId: 'b', item: { ...item, options }, answeredToday: 0, fallbackTitle: 'b' });
    expect(many.body?.options.map((o) => o.keyHint)).toEqual(['1', '2', '3', '4', '5', '6', '7', '8', '9', null, null]);
    expect(many.body?.options[10]?.testId).toBe('review-option-11');
    expect(Object.keys(many.keys.direct)).not.toContain('10');
    expect(many.help[0]?.keys).toBe('1–9');
  });

  it('with nothing waiting: the notice, the fallback title, and only undo and help', () => {
    const empty = reviewItemPage({ blueprintId: 'b', item: null, answeredToday: 7, fallbackTitle: 'My blueprint' });
    expect(empty.body).toBeNull();
    expect(empty.title).toBe('My blueprint');
    expect(empty.emptyNotice).toBe('Nothing waiting: every drawn item has its labels.');
    expect(empty.keys).toEqual({ direct: { u: 'review-undo' }, flag: {} });
    expect(empty.help.map((h) => h.keys)).toEqual(['U', '?']);
  });
});

describe('the pair page', () => {
  const page = reviewPairPage({ blueprintId: 'b', pair, answeredToday: 1, fallbackTitle: 'b' });

  it('A, B and T post a, b and tie; S skips, U undoes the last pair answer, F then 1/2 flags', () => {
    expect(page.body?.choices.map((c) => [c.testId, c.fields.answer, c.keyHint, c.action])).toEqual([
      ['pair-a', 'a', 'A', '/api/review/pairs/p1'],
      ['pair-b', 'b', 'B', '/api/review/pairs/p1'],
      ['pair-tie', 'tie', 'T', '/api/review/pairs/p1'],
    ]);
    expect(page.keys).toEqual({
      direct: { a: 'pair-a', b: 'pair-b', t: 'pair-tie', s: 'pair-skip', u: 'pair-undo' },
      flag: { '1': 'pair-flag-bad-question', '2': 'pair-flag-unreadable-reply' },
    });
    expect(page.undo.fields).toEqual({ blueprintId: 'b', kind: 'pairs' });
    expect(page.body?.flags.map((f) => f.label)).toEqual(['Flag: bad prompt', 'Flag: unreadable reply']);
    expect(page.other.href).toBe('/review/b');
  });

  it('with nothing waiting says so', () => {
    expect(reviewPairPage({ blueprintId: 'b', pair: null, answeredToday: 0, fallbackTitle: 'b' }).emptyNotice).toBe('Nothing waiting: every drawn pair has its labels.');
  });
});

describe('what a key press does', () => {
  const map: KeyMap = { direct: { '1': 'review-option-1', s: 'review-skip', u: 'review-undo' }, flag: { '1': 'review-flag-bad-question', '2': 'review-flag-unreadable-reply' } };

  it('submits the mapped form, upper or lower case', () => {
    expect(keyOutcome(map, false, press('1'))).toEqual({ kind: 'submit', testId: 'review-option-1' });
    expect(keyOutcome(map, false, press('S', {}))).toEqual({ kind: 'submit', testId: 'review-skip' });
    expect(keyOutcome(map, false, press('u'))).toEqual({ kind: 'submit', testId: 'review-undo' });
  });

  it('ignores typing, modifier keys, auto-repeat and unmapped keys', () => {
    expect(keyOutcome(map, false, press('1', { typing: true }))).toBeNull();
    expect(keyOutcome(map, false, press('s', { ctrlKey: true }))).toBeNull();
    expect(keyOutcome(map, false, press('s', { metaKey: true }))).toBeNull();
    expect(keyOutcome(map, false, press('1', { altKey: true }))).toBeNull();
    expect(keyOutcome(map, false, press('1', { repeat: true }))).toBeNull();
    expect(keyOutcome(map, false, press('7'))).toBeNull();
    expect(keyOutcome(map, false, press('Enter'))).toBeNull();
  });

  it('F waits for the flag’s digit; after F, 1 flags rather than labels, and any other key cancels', () => {
    expect(keyOutcome(map, false, press('f'))).toEqual({ kind: 'flag' });
    expect(keyOutcome(map, true, press('1'))).toEqual({ kind: 'submit', testId: 'review-flag-bad-question' });
    expect(keyOutcome(map, true, press('2'))).toEqual({ kind: 'submit', testId: 'review-flag-unreadable-reply' });
    expect(keyOutcome(map, true, press('s'))).toEqual({ kind: 'cancel' });
    expect(keyOutcome(map, true, press('Escape'))).toEqual({ kind: 'cancel' });
  });

  it('? toggles the help (Shift allowed), Esc cancels, F does nothing where nothing can be flagged', () => {
    expect(keyOutcome(map, false, press('?'))).toEqual({ kind: 'help' });
    expect(keyOutcome(map, false, press('Escape'))).toEqual({ kind: 'cancel' });
    expect(keyOutcome({ direct: { u: 'review-undo' }, flag: {} }, false, press('f'))).toBeNull();
  });
});

describe('the review home', () => {
  it('lists the blueprints with the most waiting first, counts worded, each linking to its verdicts and pairs', () => {
    const rows = reviewHomeRows([
      { blueprintId: 'quiet', title: 'Quiet', itemsWaiting: 0, pairsWaiting: 1, answeredToday: 0 },
      { blueprintId: 'busy one', title: 'Busy', itemsWaiting: 1, pairsWaiting: 4, answeredToday: 12 },
    ]);
    expect(rows).toEqual([
      { blueprintId: 'busy one', title: 'Busy', items: { text: '1 verdict waiting', href: '/review/busy%20one' }, pairs: { text: '4 pairs waiting', href: '/review/busy%20one/pairs' }, answeredToday: '12' },
      { blueprintId: 'quiet', title: 'Quiet', items: { text: '0 verdicts waiting', href: '/review/quiet' }, pairs: { text: '1 pair waiting', href: '/review/quiet/pairs' }, answeredToday: '0' },
    ]);
  });

  const NOTHING: SignInSettings = { GITHUB_OAUTH_CLIENT_ID: false, GITHUB_OAUTH_CLIENT_SECRET: false, ASSAY_ADMIN_TOKEN: false, ASSAY_TOKEN_KEY: false, GITHUB_REPOSITORY: false };

  it('signs in with GitHub coming back to /review, else on the admin sign-in page, else says what to set', () => {
    expect(reviewSignInView({ ...NOTHING, GITHUB_OAUTH_CLIENT_ID: true, GITHUB_OAUTH_CLIENT_SECRET: true })).toEqual({ href: '/api/auth/github?returnTo=%2Freview', label: 'Sign in with GitHub', unavailable: null });
    expect(reviewSignInView({ ...NOTHING, ASSAY_ADMIN_TOKEN: true }).href).toBe('/admin/sign-in');
    const none = reviewSignInView(NOTHING);
    expect(none.href).toBeNull();
    expect(none.unavailable).toContain('GITHUB_OAUTH_CLIENT_ID');
  });
});
