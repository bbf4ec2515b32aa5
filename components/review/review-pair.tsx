/** The pair page: one conversation, two anonymous replies side by side (stacked on narrow screens), A / B / tie. */
import type { ReviewPageView, ReviewPairBody } from '@/lib/views/review-view';
import { Section, muted } from '../ui';
import { ActionButton, EmptyQueue, KeyHelp, ReplyText, ReviewHeader, Turns } from './review-parts';
import { ReviewKeys } from './review-keys';

const HELP_ID = 'pair-key-help';

export function ReviewPairPage({ view, error }: { view: ReviewPageView<ReviewPairBody>; error: string | null }) {
  const pair = view.body;
  return (
    <div className="space-y-8">
      <ReviewHeader view={view} error={error} kind="compare replies" />
      {pair ? (
        <article data-testid="review-pair" data-pair-id={pair.pairId} className="space-y-8">
          <Section id="pair-conversation" title="The conversation">
            <Turns turns={pair.turns} />
          </Section>
          <Section id="pair-replies" title="Two replies" description="Which reply answers the conversation better? The order is random.">
            <div className="grid gap-4 md:grid-cols-2">
              <div className="min-w-0 space-y-2">
                <h3 className="font-semibold">Reply A</h3>
                <ReplyText reply={pair.replyA} testId="pair-reply-a" />
              </div>
              <div className="min-w-0 space-y-2">
                <h3 className="font-semibold">Reply B</h3>
                <ReplyText reply={pair.replyB} testId="pair-reply-b" />
              </div>
            </div>
          </Section>
          <div className="flex flex-wrap items-center gap-2" role="group" aria-label="Your preference">
            {pair.choices.map((c) => (
              <ActionButton key={c.testId} form={c} />
            ))}
          </div>
          <div className="flex flex-wrap items-center gap-2" role="group" aria-label="Other actions">
            <ActionButton form={pair.skip} />
            {pair.flags.map((f) => (
              <ActionButton key={f.testId} form={f} />
            ))}
            <ActionButton form={view.undo} />
          </div>
        </article>
      ) : (
        <EmptyQueue view={view} testId="pair-empty" />
      )}
      <ReviewKeys keys={view.keys} helpId={HELP_ID} flagPrompt={view.flagPrompt} />
      <KeyHelp id={HELP_ID} help={view.help} />
      <p className={`text-xs ${muted}`}>Each answer is recorded with who gave it, when, and exactly what was shown.</p>
    </div>
  );
}
