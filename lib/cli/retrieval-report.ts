/**
 * What `assay run` prints when a retrieval run ends, and its exit status: the texts embedded,
 * the calls and cost, then per model every metric with its 95% interval over queries and its
 * ladder status, and the run's page. Pure: it returns lines, the command writes them (the
 * report to standard output, the errors to standard error, as run-report.ts).
 */
import type { RetrievalRunDocument } from '@/lib/server/runs/retrieval/results-document';
import { formatUsd } from '@/lib/views/format';
import { formatMetric, formatMetricInterval } from '@/lib/views/retrieval-view';

export function retrievalReport(doc: RetrievalRunDocument, publicUrl: string): { lines: string[]; warnings: string[]; exitCode: number } {
  const r = doc.run;
  const lines = [`assay: run ${r.id} ${r.status}${r.error ? `: ${r.error}` : ''}`];
  lines.push(`  texts embedded: ${r.texts.done} of ${r.texts.total} (${r.texts.errors} failed); queries scored: ${r.queries.done} of ${r.queries.total}`);
  lines.push(`  provider calls: ${r.providerCalls}, cost ${formatUsd(r.costUsd)}`);
  lines.push(`metrics (trec_eval, 0–1; 95% interval over queries; ladder; primary: ${doc.primaryMetric}):`);
  for (const m of doc.models) {
    lines.push(`  ${m.modelId}${m.ladder ? `  [${m.ladder}]` : ''}  cost ${formatUsd(m.costUsd)}, ${m.calls} calls, ${m.cached} cached`);
    if (m.error) lines.push(`    not scored: ${m.error}`);
    for (const x of m.metrics) {
      const interval = formatMetricInterval(x.interval) ?? 'no interval';
      const ladder = x.status ? `  ${x.status} (min ${formatMetric(x.threshold)})` : '';
      lines.push(`    ${x.metric.padEnd(14)} ${formatMetric(x.value)}  ${interval.padEnd(11)}${ladder}${x.primary ? '  ← primary' : ''}`);
    }
  }
  lines.push(`see ${publicUrl.replace(/\/+$/, '')}/runs/${encodeURIComponent(r.id)}`);
  const unscored = doc.models.filter((m) => m.metrics.length === 0);
  // why the exit status is 1, where it is seen when the report goes to a file
  const warnings = [...(r.status === 'completed' ? [] : [`error: run ${r.id} ended ${r.status}${r.error ? `: ${r.error}` : ''}`]), ...unscored.map((m) => `error: ${m.modelId} was not scored${m.error ? `: ${m.error}` : ''}`)];
  const ok = r.status === 'completed' && unscored.length === 0;
  return { lines, warnings, exitCode: ok ? 0 : 1 };
}
