'use client';
/**
 * The review pages' keys. Every action is a real form on the page; a key only submits the form
 * its data-testid names (form.requestSubmit(), so it posts exactly as a click would). Nothing
 * here takes focus. `helpId` is the <details> holding the key help, which "?" opens and closes.
 */
import { useEffect, useRef, useState } from 'react';
import { keyOutcome, type KeyMap } from '@/lib/views/review-view';

/** Focus in a field where keys are typing, not commands. */
function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName);
}

export function ReviewKeys({ keys, helpId, flagPrompt }: { keys: KeyMap; helpId: string; flagPrompt: string }) {
  const [flagPending, setFlagPending] = useState(false);
  // Keys work once this page's script runs; until then a key does nothing (the buttons still do), so the page says when they are live.
  const [ready, setReady] = useState(false);
  const pending = useRef(false);
  // One answer per page: a second key while the first post is on its way would answer the same item again.
  const sent = useRef(false);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (sent.current) return;
      const outcome = keyOutcome(keys, pending.current, { key: e.key, ctrlKey: e.ctrlKey, metaKey: e.metaKey, altKey: e.altKey, repeat: e.repeat, typing: isTyping(e.target) });
      if (!outcome) return;
      e.preventDefault();
      const help = document.getElementById(helpId);
      const setPending = (v: boolean) => {
        pending.current = v;
        setFlagPending(v);
      };
      if (outcome.kind === 'flag') setPending(true);
      else if (outcome.kind === 'cancel') {
        setPending(false);
        if (help instanceof HTMLDetailsElement) help.open = false;
      } else if (outcome.kind === 'help') {
        if (help instanceof HTMLDetailsElement) help.open = !help.open;
      } else {
        setPending(false);
        const form = document.querySelector(`form[data-testid="${outcome.testId}"]`);
        if (form instanceof HTMLFormElement) {
          sent.current = true;
          form.requestSubmit();
        }
      }
    };
    // Coming back with the browser's Back button can restore this page as it was left (sent).
    const onShow = (e: PageTransitionEvent) => {
      if (e.persisted) sent.current = false;
    };
    document.addEventListener('keydown', onKey);
    window.addEventListener('pageshow', onShow);
    setReady(true);
    return () => {
      document.removeEventListener('keydown', onKey);
      window.removeEventListener('pageshow', onShow);
    };
  }, [keys, helpId]);

  return (
    <p role="status" aria-live="polite" data-testid="review-flag-pending" data-keys-ready={ready ? 'true' : undefined} className="min-h-5 text-sm font-medium text-amber-800 dark:text-amber-200">
      {flagPending ? flagPrompt : ''}
    </p>
  );
}
