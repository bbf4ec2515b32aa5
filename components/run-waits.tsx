import type { RunWaitView } from '@/lib/views/run-wait-view';

/** Why a working run waits and until when (run-wait-view.ts): the reason its counts stand still. */
export function WaitNotes({ waits, testId }: { waits: RunWaitView[]; testId: string }) {
  return (
    <ul role="status" data-testid={testId} className="space-y-1 rounded border border-amber-300 bg-amber-50 p-2 text-sm text-amber-900 dark:border-amber-900 dark:bg-amber-950 dark:text-amber-200">
      {waits.map((w) => (
        <li key={w.modelId}>
          {w.text}
          {w.detail && <span className="block text-xs opacity-80">The provider said: {w.detail}</span>}
        </li>
      ))}
    </ul>
  );
}
