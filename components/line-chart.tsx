'use client';
/**
 * A line chart of scores over time (recharts). Data arrive as a view model: series keys,
 * labels, colours and dashes are decided upstream. The chart is one image for assistive
 * technology, labelled by its title; the same numbers are always in a table next to it.
 */
import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { LineChartData } from '@/lib/views/chart-series';

export function ScoreLineChart({ data, testId }: { data: LineChartData; testId?: string }) {
  return (
    <figure className="space-y-1" data-testid={testId}>
      <div role="img" aria-label={`${data.title}. The numbers are in the table below.`} className="h-72 w-full text-zinc-600 dark:text-zinc-400">
        <ResponsiveContainer width="100%" height="100%">
          <LineChart data={data.rows} margin={{ top: 8, right: 16, bottom: 8, left: 0 }} accessibilityLayer={false}>
            <CartesianGrid stroke="currentColor" strokeOpacity={0.15} />
            <XAxis dataKey="x" stroke="currentColor" fontSize={12} />
            <YAxis domain={[0, 100]} stroke="currentColor" fontSize={12} width={36} />
            <Tooltip contentStyle={{ background: 'Canvas', color: 'CanvasText', fontSize: 12 }} />
            <Legend wrapperStyle={{ fontSize: 12 }} />
            {/* straight segments between measured points: a smoothed curve drew values no run measured */}
            {data.series.map((s) => (
              <Line key={s.key} type="linear" dataKey={s.key} name={s.label} stroke={s.colour} strokeDasharray={s.dash || undefined} strokeWidth={2} dot={{ r: 3 }} connectNulls isAnimationActive={false} />
            ))}
          </LineChart>
        </ResponsiveContainer>
      </div>
      <figcaption className="text-sm text-zinc-600 dark:text-zinc-400">{data.title}</figcaption>
    </figure>
  );
}
