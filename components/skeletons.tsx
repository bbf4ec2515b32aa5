/**
 * Loading placeholders, one per kind of section: each section of a page streams on its own
 * under <Suspense>, and shows one of these until its data arrives. Announced politely.
 */
const bar = 'animate-pulse rounded bg-zinc-200 dark:bg-zinc-800';

function Frame({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div role="status" aria-live="polite" className="space-y-2">
      <span className="sr-only">Loading {label}…</span>
      {children}
    </div>
  );
}

export function TableSkeleton({ label, rows = 5 }: { label: string; rows?: number }) {
  return (
    <Frame label={label}>
      <div className={`h-6 w-48 ${bar}`} />
      {Array.from({ length: rows }, (_v, i) => (
        <div key={i} className={`h-8 w-full ${bar}`} />
      ))}
    </Frame>
  );
}

export function HeatmapSkeleton() {
  return (
    <Frame label="heatmap">
      <div className={`h-6 w-64 ${bar}`} />
      <div className="grid grid-cols-8 gap-1">
        {Array.from({ length: 48 }, (_v, i) => (
          <div key={i} className={`h-7 ${bar}`} />
        ))}
      </div>
    </Frame>
  );
}

export function ChartSkeleton({ label }: { label: string }) {
  return (
    <Frame label={label}>
      <div className={`h-64 w-full ${bar}`} />
    </Frame>
  );
}

export function CardsSkeleton({ label, cards = 3 }: { label: string; cards?: number }) {
  return (
    <Frame label={label}>
      <div className="grid gap-4 md:grid-cols-3">
        {Array.from({ length: cards }, (_v, i) => (
          <div key={i} className={`h-64 ${bar}`} />
        ))}
      </div>
    </Frame>
  );
}

export function TextSkeleton({ label, lines = 4 }: { label: string; lines?: number }) {
  return (
    <Frame label={label}>
      {Array.from({ length: lines }, (_v, i) => (
        <div key={i} className={`h-4 ${i === lines - 1 ? 'w-2/3' : 'w-full'} ${bar}`} />
      ))}
    </Frame>
  );
}
