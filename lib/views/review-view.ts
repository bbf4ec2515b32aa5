/**
 * What the reviewer's pages show, decided once: the numbered options and the key that submits
 * each, the conversation's role labels, the key help, and what a key press does. The pages are
 * keyboard-first, but every action is also a plain form (it works with Tab and Enter, and
 * without JavaScript); a key press only submits one of those forms, named by its data-testid.
 *
 * Reviewers are blinded: nothing here names the model or shows a judge's answer, because the
 * shown item (lib/core ShownReviewItemSchema, ShownPairSchema) does not carry them.
 */
import { z } from 'zod';
import type { Message, ReviewFlag, ShownPair, ShownReviewItem } from '@/lib/core';
import { gitHubSignInMissing, type SignInSettings } from './sign-in-view';

/** A blueprint id from the review pages' path; anything else is a 404. */
export const ReviewBlueprintIdSchema = z.string().min(1).max(300);

/** `?error=`: why the last answer was not saved, said in a banner (the routes redirect back with it). */
export const ReviewSearchParams = z.object({ error: z.string().min(1).max(500).optional().catch(undefined) });

const seg = (s: string) => encodeURIComponent(s);

export const reviewHref = {
  home: '/review',
  items: (blueprintId: string) => `/review/${seg(blueprintId)}`,
  pairs: (blueprintId: string) => `/review/${seg(blueprintId)}/pairs`,
};

/** Where each action form posts (the routes answer a form post with 303 back to the page). */
export const reviewPost = {
  item: (itemId: string) => `/api/review/items/${seg(itemId)}`,
  pair: (pairId: string) => `/api/review/pairs/${seg(pairId)}`,
  undo: '/api/review/undo',
};

/** One action as a form: where it posts, its hidden fields, its button and the key that submits it. */
export interface ActionForm {
  testId: string;
  action: string;
  fields: Record<string, string>;
  label: string;
  /** The key as shown on the button ("1", "S", "F 2"); null when no key submits it (options past the ninth). */
  keyHint: string | null;
}

/**
 * Which key submits which form. Keys are as `KeyboardEvent.key` gives them, lower-cased:
 * `direct` act alone; `flag` act after F (two presses, so a flag is never given by a slip).
 */
export interface KeyMap {
  direct: Record<string, string>;
  flag: Record<string, string>;
}

export interface HelpLine {
  keys: string;
  does: string;
}

export interface TurnView {
  roleLabel: string;
  /** null: a turn the model under test wrote earlier in the conversation, not kept with the item. */
  text: string | null;
  long: boolean;
}

/**
 * A reply shown as the judge read it: plain text with its line breaks, never as HTML. `long`
 * replies are broken anywhere (word-break: break-all), since laying out a long unbroken run
 * otherwise can freeze the tab (see components/markdown.tsx).
 */
export interface ReplyTextView {
  text: string;
  long: boolean;
}

export const LONG_REPLY_CHARS = 20_000;

const ROLE: Record<Message['role'], string> = { system: 'System', user: 'User', assistant: 'Assistant' };

export function turnsView(conversation: readonly Message[]): TurnView[] {
  return conversation.map((m) => ({ roleLabel: ROLE[m.role], text: m.content, long: (m.content?.length ?? 0) > LONG_REPLY_CHARS }));
}

export function replyTextView(text: string): ReplyTextView {
  return { text, long: text.length > LONG_REPLY_CHARS };
}

/** The two flags, worded for a verdict (the question) or a pair (the prompt both replies answer). */
const FLAG_NAME: Record<'item' | 'pair', Record<ReviewFlag, string>> = {
  item: { 'bad-question': 'bad question', 'unreadable-reply': 'unreadable reply' },
  pair: { 'bad-question': 'bad prompt', 'unreadable-reply': 'unreadable reply' },
};
/** The flags in their order: the second key after F is the flag's place in it. */
const FLAG_ORDER: readonly ReviewFlag[] = ['bad-question', 'unreadable-reply'];

function flagForms(kind: 'item' | 'pair', prefix: string, action: string): ActionForm[] {
  return FLAG_ORDER.map((flag, i) => ({
    testId: `${prefix}-flag-${flag}`,
    action,
    fields: { action: 'flag', flag },
    label: `Flag: ${FLAG_NAME[kind][flag]}`,
    keyHint: `F ${i + 1}`,
  }));
}

/** What F asks next, said on the page while it waits for the second key. */
function flagPrompt(kind: 'item' | 'pair'): string {
  return `Flag: press ${FLAG_ORDER.map((flag, i) => `${i + 1} for “${FLAG_NAME[kind][flag]}”`).join(', ')}; Esc cancels.`;
}

function flagHelp(kind: 'item' | 'pair'): HelpLine[] {
  return [
    ...FLAG_ORDER.map((flag, i) => ({ keys: `F then ${i + 1}`, does: `Flag: ${FLAG_NAME[kind][flag]}` })),
    { keys: 'Esc', does: 'Cancel a flag begun with F; close this help' },
  ];
}

function undoForm(prefix: string, blueprintId: string, kind: 'verdicts' | 'pairs'): ActionForm {
  return { testId: `${prefix}-undo`, action: reviewPost.undo, fields: { blueprintId, kind }, label: 'Undo my last answer', keyHint: 'U' };
}

/** The key map of a page's forms: each form's own key, F + n for the flags. */
function keyMapOf(forms: readonly ActionForm[], flags: readonly ActionForm[]): KeyMap {
  const direct: Record<string, string> = {};
  for (const f of forms) if (f.keyHint) direct[f.keyHint.toLowerCase()] = f.testId;
  const flag: Record<string, string> = {};
  flags.forEach((f, i) => (flag[String(i + 1)] = f.testId));
  return { direct, flag };
}

const TAIL_HELP: HelpLine[] = [
  { keys: 'U', does: 'Undo my last answer on this blueprint' },
  { keys: '?', does: 'Show or hide these keys' },
];

const answered = (n: number) => `Answered today: ${n}`;

/** Options a key can choose: 1–9. */
const KEYED_OPTIONS = 9;

export interface ReviewItemBody {
  itemId: string;
  turns: TurnView[];
  reply: ReplyTextView;
  statement: string;
  options: ActionForm[];
  skip: ActionForm;
  flags: ActionForm[];
}

export interface ReviewPageView<Body> {
  title: string;
  progress: string;
  /** The page's item, or null when nothing is waiting (then `emptyNotice` says so). */
  body: Body | null;
  emptyNotice: string;
  undo: ActionForm;
  /** The other kind of review on this blueprint. */
  other: { href: string; label: string };
  homeHref: string;
  keys: KeyMap;
  flagPrompt: string;
  help: HelpLine[];
}

/**
 * The verdict page: `title` is the blueprint's (the item carries it; when the queue is empty,
 * the caller's `fallbackTitle`).
 */
export function reviewItemPage(input: { blueprintId: string; item: ShownReviewItem | null; answeredToday: number; fallbackTitle: string }): ReviewPageView<ReviewItemBody> {
  const { blueprintId, item } = input;
  const undo = undoForm('review', blueprintId, 'verdicts');
  const itemAction = item ? reviewPost.item(item.itemId) : '';
  const options: ActionForm[] = (item?.options ?? []).map((o, i) => ({
    testId: `review-option-${i + 1}`,
    action: itemAction,
    fields: { action: 'label', answer: o.label },
    label: o.text,
    keyHint: i < KEYED_OPTIONS ? String(i + 1) : null,
  }));
  const skip: ActionForm = { testId: 'review-skip', action: itemAction, fields: { action: 'skip' }, label: 'Skip', keyHint: 'S' };
  const flags = flagForms('item', 'review', itemAction);
  const body = item ? { itemId: item.itemId, turns: turnsView(item.conversation), reply: replyTextView(item.reply), statement: item.statement, options, skip, flags } : null;
  return {
    title: item?.blueprintTitle ?? input.fallbackTitle,
    progress: answered(input.answeredToday),
    body,
    emptyNotice: 'Nothing waiting: every drawn item has its labels.',
    undo,
    other: { href: reviewHref.pairs(blueprintId), label: 'Compare pairs of replies instead' },
    homeHref: reviewHref.home,
    keys: body ? keyMapOf([...options, skip, undo], flags) : keyMapOf([undo], []),
    flagPrompt: flagPrompt('item'),
    help: body
      ? [
          { keys: `1–${Math.min(KEYED_OPTIONS, options.length)}`, does: 'Choose that option (saves the answer and shows the next item)' },
          { keys: 'S', does: 'Skip this item (someone else may answer it)' },
          ...flagHelp('item'),
          ...TAIL_HELP,
        ]
      : TAIL_HELP,
  };
}

export interface ReviewPairBody {
  pairId: string;
  turns: TurnView[];
  replyA: ReplyTextView;
  replyB: ReplyTextView;
  choices: ActionForm[];
  skip: ActionForm;
  flags: ActionForm[];
}

/** The pair page: two anonymous replies to one prompt, A / B / tie. */
export function reviewPairPage(input: { blueprintId: string; pair: ShownPair | null; answeredToday: number; fallbackTitle: string }): ReviewPageView<ReviewPairBody> {
  const { blueprintId, pair } = input;
  const undo = undoForm('pair', blueprintId, 'pairs');
  const pairAction = pair ? reviewPost.pair(pair.pairId) : '';
  const choice = (answer: 'a' | 'b' | 'tie', label: string, key: string): ActionForm => ({ testId: `pair-${answer}`, action: pairAction, fields: { action: 'label', answer }, label, keyHint: key });
  const choices = [choice('a', 'A is better', 'A'), choice('b', 'B is better', 'B'), choice('tie', 'Tie: neither is better', 'T')];
  const skip: ActionForm = { testId: 'pair-skip', action: pairAction, fields: { action: 'skip' }, label: 'Skip', keyHint: 'S' };
  const flags = flagForms('pair', 'pair', pairAction);
  const body = pair ? { pairId: pair.pairId, turns: turnsView(pair.conversation), replyA: replyTextView(pair.replyA), replyB: replyTextView(pair.replyB), choices, skip, flags } : null;
  return {
    title: pair?.blueprintTitle ?? input.fallbackTitle,
    progress: answered(input.answeredToday),
    body,
    emptyNotice: 'Nothing waiting: every drawn pair has its labels.',
    undo,
    other: { href: reviewHref.items(blueprintId), label: 'Label verdicts instead' },
    homeHref: reviewHref.home,
    keys: body ? keyMapOf([...choices, skip, undo], flags) : keyMapOf([undo], []),
    flagPrompt: flagPrompt('pair'),
    help: body
      ? [
          { keys: 'A', does: 'Reply A is better' },
          { keys: 'B', does: 'Reply B is better' },
          { keys: 'T', does: 'A tie: neither is better' },
          { keys: 'S', does: 'Skip this pair (someone else may answer it)' },
          ...flagHelp('pair'),
          ...TAIL_HELP,
        ]
      : TAIL_HELP,
  };
}

/** A key press as the page's key handler sees it. */
export interface KeyPress {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  /** Held down and auto-repeating: one answer per press, never a burst. */
  repeat: boolean;
  /** Focus is in a text field, where keys are typing. */
  typing: boolean;
}

export type KeyOutcome = { kind: 'submit'; testId: string } | { kind: 'flag' } | { kind: 'help' } | { kind: 'cancel' } | null;

/**
 * What a key press does. Keys with Ctrl, Cmd or Alt held belong to the browser; Shift is
 * allowed (`?` needs it on most layouts, and caps lock should not stop "S"). After F, only the
 * flag's digit acts: any other key cancels, so a slip after F never records a label.
 */
export function keyOutcome(map: KeyMap, flagPending: boolean, press: KeyPress): KeyOutcome {
  if (press.typing || press.ctrlKey || press.metaKey || press.altKey || press.repeat) return null;
  const key = press.key.length === 1 ? press.key.toLowerCase() : press.key;
  if (flagPending) {
    const flag = map.flag[key];
    return flag ? { kind: 'submit', testId: flag } : { kind: 'cancel' };
  }
  if (key === 'Escape') return { kind: 'cancel' };
  if (key === '?') return { kind: 'help' };
  if (key === 'f' && Object.keys(map.flag).length > 0) return { kind: 'flag' };
  const testId = map.direct[key];
  return testId ? { kind: 'submit', testId } : null;
}

/** A blueprint this reviewer may review, as the review home lists it. */
export interface ReviewableRow {
  blueprintId: string;
  title: string;
  itemsWaiting: number;
  pairsWaiting: number;
  answeredToday: number;
}

export interface ReviewHomeRow {
  blueprintId: string;
  title: string;
  items: { text: string; href: string };
  pairs: { text: string; href: string };
  answeredToday: string;
}

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** Blueprints with the most waiting first, then by title. */
export function reviewHomeRows(rows: readonly ReviewableRow[]): ReviewHomeRow[] {
  return [...rows]
    .sort((a, b) => b.itemsWaiting + b.pairsWaiting - (a.itemsWaiting + a.pairsWaiting) || a.title.localeCompare(b.title))
    .map((r) => ({
      blueprintId: r.blueprintId,
      title: r.title,
      items: { text: `${count(r.itemsWaiting, 'verdict', 'verdicts')} waiting`, href: reviewHref.items(r.blueprintId) },
      pairs: { text: `${count(r.pairsWaiting, 'pair', 'pairs')} waiting`, href: reviewHref.pairs(r.blueprintId) },
      answeredToday: String(r.answeredToday),
    }));
}

export const REVIEW_EXPLAINED =
  'Reviewing is answering, by hand, the same questions the LLM judges were asked about a reply, and saying which of two replies to the same prompt is better. ' +
  'Your answers show how far the judges can be trusted and rank the models by people’s preferences. ' +
  'You are blinded: you never see which model wrote a reply or what the judges answered. ' +
  'Each answer is recorded with who gave it, when, and exactly what was shown.';

/** The home with no rows: either no grant, or (for a reviewer of every blueprint) nothing drawn for review yet. */
export const REVIEW_NOTHING =
  'There is nothing for you to review: either you have not been granted the reviewer role (an admin can grant it for a blueprint, or for every blueprint), or nothing has been drawn for review yet.';

export interface ReviewSignInView {
  /** The link that signs in and comes back to /review; null when no way of signing in is configured. */
  href: string | null;
  label: string;
  /** Why signing in is not possible here, naming the settings; null when it is. */
  unavailable: string | null;
}

/** Reviewers sign in with GitHub (they come back to /review) or, on a server with only the admin token, on the admin sign-in page. */
export function reviewSignInView(s: SignInSettings): ReviewSignInView {
  if (gitHubSignInMissing(s).length === 0) return { href: `/api/auth/github?returnTo=${seg(reviewHref.home)}`, label: 'Sign in with GitHub', unavailable: null };
  if (s.ASSAY_ADMIN_TOKEN) return { href: '/admin/sign-in', label: 'Sign in', unavailable: null };
  return {
    href: null,
    label: 'Sign in',
    unavailable: 'Reviewing needs you signed in, and no way to sign in is configured on this server: set GITHUB_OAUTH_CLIENT_ID and GITHUB_OAUTH_CLIENT_SECRET (docs/github.md, “Sign-in and Connect GitHub”), then restart Assay.',
  };
}

export const NOT_A_REVIEWER = 'You are not a reviewer of this blueprint. An admin can grant you the reviewer role for it (or for every blueprint) on the admin page.';
