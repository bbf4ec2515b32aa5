/** The pieces both review pages share: the conversation, a reply as text, an action form, the key help. */
import type { ActionForm, HelpLine, ReplyTextView, ReviewPageView, TurnView } from '@/lib/views/review-view';
import { Banner, Breadcrumbs, card, link, muted } from '../ui';

export function Kbd({ children }: { children: React.ReactNode }) {
  return <kbd className="rounded border border-zinc-300 bg-zinc-50 px-1.5 py-0.5 font-mono text-xs text-zinc-700 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-300">{children}</kbd>;
}

export function Turns({ turns }: { turns: TurnView[] }) {
  return (
    <ol className="space-y-3" aria-label="Conversation">
      {turns.map((t, i) => (
        <li key={i} data-testid="review-turn" className={`${card} p-3 ${t.roleLabel === 'User' ? 'bg-zinc-50 dark:bg-zinc-900' : ''}`}>
          <p className={`text-xs font-semibold uppercase ${muted}`}>{t.roleLabel}</p>
          {t.text === null ? <p className={`text-sm italic ${muted}`}>A turn the model wrote earlier (not kept with this item).</p> : <PlainText text={t.text} long={t.long} className="text-sm" />}
        </li>
      ))}
    </ol>
  );
}

/** Text exactly as written, line breaks kept; React escapes it, so markup shows as the characters it is. */
function PlainText({ text, long, className = '' }: { text: string; long: boolean; className?: string }) {
  return <div className={`whitespace-pre-wrap ${long ? 'break-all' : 'break-words'} ${className}`}>{text}</div>;
}

export function ReplyText({ reply, testId }: { reply: ReplyTextView; testId: string }) {
  return (
    <div data-testid={testId} className={`${card} p-3`}>
      <PlainText text={reply.text} long={reply.long} />
    </div>
  );
}

const BUTTON = {
  primary: 'w-full rounded border border-zinc-300 bg-white px-3 py-2 text-left text-sm hover:border-zinc-900 hover:bg-zinc-50 focus-visible:outline focus-visible:outline-2 focus-visible:outline-blue-600 dark:border-zinc-700 dark:bg-zinc-950 dark:hover:border-zinc-100 dark:hover:bg-zinc-900',
  secondary: 'rounded border border-zinc-300 px-3 py-1.5 text-sm hover:bg-zinc-50 focus-visible:outline focus-visible:outline-2 focus-visible:outline-blue-600 dark:border-zinc-700 dark:hover:bg-zinc-900',
};

/** One action as a plain form: it works with Tab and Enter, and without JavaScript. */
export function ActionButton({ form, primary = false }: { form: ActionForm; primary?: boolean }) {
  return (
    <form method="post" action={form.action} data-testid={form.testId} className={primary ? 'block' : 'inline'}>
      {Object.entries(form.fields).map(([k, v]) => (
        <input key={k} type="hidden" name={k} value={v} />
      ))}
      <button type="submit" className={`${primary ? BUTTON.primary : BUTTON.secondary} inline-flex items-baseline gap-2`}>
        {form.keyHint && <Kbd>{form.keyHint}</Kbd>}
        <span>{form.label}</span>
      </button>
    </form>
  );
}

/** The keys, in a <details> so the list is there without JavaScript; "?" opens and closes it. */
export function KeyHelp({ id, help }: { id: string; help: HelpLine[] }) {
  return (
    <details id={id} data-testid="review-key-help" className={`${card} p-3 text-sm`}>
      <summary className="cursor-pointer font-medium">
        Keys <Kbd>?</Kbd>
      </summary>
      <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
        {help.map((h) => (
          <div key={h.keys} className="contents">
            <dt>
              <Kbd>{h.keys}</Kbd>
            </dt>
            <dd>{h.does}</dd>
          </div>
        ))}
      </dl>
      <p className={`mt-2 ${muted}`}>Keys do nothing while you type in a field or hold Ctrl, Alt or Cmd. Every action is also a button.</p>
    </details>
  );
}

/** The title, progress, error banner and links above either page's item. */
export function ReviewHeader({ view, error, kind }: { view: ReviewPageView<unknown>; error: string | null; kind: string }) {
  return (
    <div className="space-y-3">
      <Breadcrumbs items={[{ label: 'Review', href: view.homeHref }, { label: view.title }]} />
      <div className="flex flex-wrap items-baseline justify-between gap-3">
        <h1 className="text-2xl font-semibold tracking-tight">
          {view.title} <span className={`text-base font-normal ${muted}`}>· {kind}</span>
        </h1>
        <p className="text-sm tabular-nums" data-testid="review-progress">
          {view.progress}
        </p>
      </div>
      {error && <Banner kind="error">{error}</Banner>}
      <p className={`text-sm ${muted}`}>
        You see neither the model’s name nor the judges’ answers. <a href={view.other.href} className={link}>{view.other.label}</a>
      </p>
    </div>
  );
}

/** The queue is empty: say so, and keep undo (the last answer may have emptied it). */
export function EmptyQueue({ view, testId }: { view: ReviewPageView<unknown>; testId: string }) {
  return (
    <div className="space-y-3">
      <p data-testid={testId} className={`rounded border border-dashed border-zinc-300 p-6 dark:border-zinc-700 ${muted}`}>
        {view.emptyNotice} <a href={view.other.href} className={link}>{view.other.label}</a>
      </p>
      <ActionButton form={view.undo} />
    </div>
  );
}

/** Signed in, but not granted the reviewer role for this blueprint. */
export function NotAReviewer({ message, homeHref }: { message: string; homeHref: string }) {
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-semibold tracking-tight">Review</h1>
      <p role="alert" data-testid="review-forbidden" className="rounded border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-200">
        {message}
      </p>
      <a href={homeHref} className={link}>
        The blueprints you may review
      </a>
    </div>
  );
}
