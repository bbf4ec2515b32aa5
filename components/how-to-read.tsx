/** "How to read this": the page's numbers, one sentence each, linked to the methodology page. */
import Link from 'next/link';
import type { ReadingItem } from '@/lib/views/how-to-read';
import { METHODOLOGY_PATH } from '@/lib/views/methodology-text';
import { card, link, muted } from './ui';

export function HowToRead({ items }: { items: ReadingItem[] }) {
  return (
    <details className={`${card} px-4 py-2 text-sm`} data-testid="how-to-read">
      <summary className="cursor-pointer font-medium">How to read this</summary>
      <dl className="mt-2 space-y-1.5">
        {items.map((i) => (
          <div key={i.topic}>
            <dt className="inline font-medium">{i.term}: </dt>
            <dd className="inline">
              {i.sentence}{' '}
              <Link href={i.href} className={link}>
                More
              </Link>
            </dd>
          </div>
        ))}
      </dl>
      <p className={`mt-2 ${muted}`}>
        <Link href={METHODOLOGY_PATH} className={link}>
          The methodology
        </Link>{' '}
        says how every number is made.
      </p>
    </details>
  );
}
