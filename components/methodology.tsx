/** The methodology page's body, from lib/views/methodology-text.ts. */
import { METHODOLOGY, METHODOLOGY_INTRO } from '@/lib/views/methodology-text';
import { muted } from './ui';

export function Methodology() {
  return (
    <article className="max-w-3xl space-y-8">
      <header className="space-y-2">
        <h1 className="text-2xl font-semibold tracking-tight">Methodology</h1>
        <p className={muted}>{METHODOLOGY_INTRO}</p>
        <nav aria-label="Sections">
          <ul className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
            {METHODOLOGY.map((s) => (
              <li key={s.id}>
                <a href={`#${s.id}`} className="text-blue-700 underline-offset-2 hover:underline dark:text-blue-300">
                  {s.title}
                </a>
              </li>
            ))}
          </ul>
        </nav>
      </header>
      {METHODOLOGY.map((s) => (
        <section key={s.id} id={s.id} aria-labelledby={`${s.id}-h`} className="scroll-mt-4 space-y-3">
          <h2 id={`${s.id}-h`} className="text-lg font-semibold tracking-tight">
            {s.title}
          </h2>
          {s.body.map((b, i) =>
            typeof b === 'string' ? (
              <p key={i} className="leading-relaxed">
                {b}
              </p>
            ) : (
              <ul key={i} className="list-disc space-y-1.5 pl-6 leading-relaxed">
                {b.map((item) => (
                  <li key={item}>{item}</li>
                ))}
              </ul>
            ),
          )}
          {s.sources && <p className={`text-sm ${muted}`}>Sources: {s.sources.join('; ')}.</p>}
        </section>
      ))}
    </article>
  );
}
