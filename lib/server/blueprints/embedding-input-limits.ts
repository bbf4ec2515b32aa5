/**
 * A retrieval blueprint's documents and queries against the input limits of the embedding models
 * it names, checked when its files are loaded: a text longer than a model takes (OpenAI's models:
 * 8,192 cl100k_base tokens per input, providers/embeddings/openai-limits.ts) is an error at its
 * line, before any run. Assay refuses rather than truncates: a truncated document is scored on
 * text the qrels did not judge, and the run would rank a different corpus than the file holds.
 * Split the document into passages (and judge the passages) instead.
 */
import type { BlueprintIssue, RetrievalBlock, RetrievalData } from '@/lib/core';
import { openAiEmbeddingLimits } from '../providers/embeddings/openai-limits';

interface Source {
  path: string;
  text: string;
}

/** 1-based line and column of `"text"` on each non-blank line, in file order (one record per line once the file parsed). */
function textPositions(text: string): { line: number; col: number }[] {
  const out: { line: number; col: number }[] = [];
  text.split('\n').forEach((raw, i) => {
    if (raw.trim() === '') return;
    const at = raw.indexOf('"text"');
    out.push({ line: i + 1, col: at >= 0 ? at + 1 : 1 });
  });
  return out;
}

export async function embeddingLimitIssues(
  block: Pick<RetrievalBlock, 'models'>,
  data: Pick<RetrievalData, 'corpus' | 'queries'>,
  sources: { corpus: Source; queries: Source },
): Promise<BlueprintIssue[]> {
  const limited = block.models.flatMap((m) => {
    const colon = m.id.indexOf(':');
    const limits = colon > 0 ? openAiEmbeddingLimits(m.id.slice(0, colon), m.id.slice(colon + 1)) : null;
    return limits ? [{ id: m.id, limits }] : [];
  });
  if (limited.length === 0) return [];
  const issues: BlueprintIssue[] = [];
  for (const [role, items] of [
    ['corpus', data.corpus],
    ['queries', data.queries],
  ] as const) {
    let positions: { line: number; col: number }[] | null = null;
    for (const [i, item] of items.entries()) {
      // Whichever model has the lowest limit decides; a text of at most that many UTF-8 bytes has at most that many tokens.
      const bytes = Buffer.byteLength(item.text, 'utf8');
      for (const { id, limits } of limited) {
        if (bytes <= limits.maxInputTokens) continue;
        const tokens = await limits.countTokens(item.text);
        if (tokens <= limits.maxInputTokens) continue;
        positions ??= textPositions(sources[role].text);
        const at = positions[i] ?? { line: 1, col: 1 };
        issues.push({
          severity: 'error',
          code: 'limit',
          file: sources[role].path,
          line: at.line,
          col: at.col,
          message: `the ${role === 'corpus' ? 'document' : 'query'} ${JSON.stringify(item.id)} is ${tokens.toLocaleString('en-US')} tokens long, over the ${limits.maxInputTokens.toLocaleString('en-US')}-token input limit of ${id}`,
          hint: 'Split it into passages of at most that many tokens (and judge the passages in the qrels), or leave that model out; Assay does not truncate texts.',
        });
        break;
      }
    }
  }
  return issues;
}
