/**
 * The column dictionary of the run exports as Markdown, made from the tables' schemas
 * (export-tables.ts): docs/exports.md holds this text between its markers, and a test fails
 * when the two differ, so the documented columns are the exported ones.
 */
import { exportColumns, ExportTableSchema, type ExportTable } from './export-tables';

export const DICTIONARY_START = '<!-- columns: made from lib/core/exports/export-tables.ts -->';
export const DICTIONARY_END = '<!-- end of columns -->';

const TITLES: Record<ExportTable, string> = {
  replies: 'replies: one row per reply (a model answering a prompt once)',
  verdicts: 'verdicts: one row per point graded on a reply',
  attempts: "attempts: one row per reply's score",
};

export function exportDictionaryMarkdown(): string {
  const sections = ExportTableSchema.options.map((table) => {
    const rows = exportColumns(table).map((c) => `| \`${c.name}\` | ${c.type}${c.nullable && c.type !== 'json' ? ', may be empty' : ''} | ${c.description.replaceAll('|', '\\|')} |`);
    return [`### ${TITLES[table]}`, '', '| column | type | meaning |', '|---|---|---|', ...rows].join('\n');
  });
  return [DICTIONARY_START, '', sections.join('\n\n'), '', DICTIONARY_END].join('\n');
}
