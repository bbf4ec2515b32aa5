/** The source file on the blueprint page: the first lines inline, the rest one link away. */
import type { BlueprintSource } from '@/lib/server/db/queries/blueprint-source';
import { plural, shortSha } from './format';

/** Lines shown inline; a large blueprint's whole file would outweigh the rest of the page. */
export const EXCERPT_LINES = 150;

export function sourceExcerpt(s: BlueprintSource): { text: string | null; truncated: boolean; label: string } {
  const at = s.sourceCommit ? ` at commit ${shortSha(s.sourceCommit)}` : '';
  if (s.text === null) return { text: null, truncated: false, label: `${s.path}${at}` };
  const lines = s.text.split('\n');
  const truncated = lines.length > EXCERPT_LINES;
  return {
    text: truncated ? lines.slice(0, EXCERPT_LINES).join('\n') : s.text,
    truncated,
    label: `${s.path}${at} (${plural(lines.length, 'line')}${truncated ? `, first ${EXCERPT_LINES} shown` : ''})`,
  };
}
