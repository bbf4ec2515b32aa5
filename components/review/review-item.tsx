/** The verdict page: the conversation, the reply, and the judge's question with its options as buttons. */
import type { ReviewItemBody, ReviewPageView } from '@/lib/views/review-view';
import { Section, muted } from '../ui';
import { ActionButton, EmptyQueue, KeyHelp, ReplyText, ReviewHeader, Turns } from './review-parts';
import { ReviewKeys } from './review-keys';

const HELP_ID = 'review-key-help';

export function ReviewItemPage({ view, error }: { view: ReviewPageView<ReviewItemBody>; error: string | null }) {
  const item = view.body;
  return (
    <div className="space-y-8">
      <ReviewHeader view={view} error={error} kind="label verdicts" />
      {item ? (
        <article data-testid="review-item" data-item-id={item.itemId} className="space-y-8">
          <Section id="review-conversation" title="The conversation">
            <Turns turns={item.turns} />
          </Section>
          <Section id="review-reply" title="The reply">
            <ReplyText reply={item.reply} testId="review-reply" />
          </Section>
          <Section id="review-question" title="The question" description="Answer as the judge was asked to: about the reply above.">
            <p data-testid="review-statement" className="whitespace-pre-line font-medium">
              {item.statement}
            </p>
            <ol className="space-y-2" aria-label="Options">
              {item.options.map((o) => (
                <li key={o.testId}>
                  <ActionButton form={o} primary />
                </li>
              ))}
            </ol>
          </Section>
          <div className="flex flex-wrap items-center gap-2" role="group" aria-label="Other actions">
            <ActionButton form={item.skip} />
            {item.flags.map((f) => (
              <ActionButton key={f.testId} form={f} />
            ))}
            <ActionButton form={view.undo} />
          </div>
        </article>
      ) : (
        <EmptyQueue view={view} testId="review-empty" />
      )}
      <ReviewKeys keys={view.keys} helpId={HELP_ID} flagPrompt={view.flagPrompt} />
      <KeyHelp id={HELP_ID} help={view.help} />
      <p className={`text-xs ${muted}`}>Each answer is recorded with who gave it, when, and exactly what was shown.</p>
    </div>
  );
}
