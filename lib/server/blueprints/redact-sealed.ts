/**
 * A blueprint's source text with its sealed `test` prompts taken out, for showing the file
 * publicly (SPEC §2.5: sealed prompts are run and scored, never shown). Each sealed prompt
 * keeps only `split: test` and a comment, so readers see that and where prompts were sealed.
 * When the file does not parse but mentions a test split, nothing is shown (null): we
 * cannot tell which part to hide, so we hide all of it.
 */
import { isScalar, parseAllDocuments, visit } from 'yaml';

const SEALED_NOTE = ' sealed test prompt: scored, never shown';
const MENTIONS_TEST_SPLIT = /\bsplit["']?\s*:\s*["']?test\b/;

export function redactSealedSource(text: string): string | null {
  if (!MENTIONS_TEST_SPLIT.test(text)) return text;
  const docs = parseAllDocuments(text);
  if (!Array.isArray(docs) || docs.some((d) => d.errors.length > 0)) return null;
  let sealed = 0;
  for (const doc of docs) {
    visit(doc, {
      Map(_key, node) {
        if (node.get('split') !== 'test') return undefined;
        sealed++;
        node.items = node.items.filter((pair) => isScalar(pair.key) && pair.key.value === 'split');
        node.commentBefore = SEALED_NOTE;
        return visit.SKIP;
      },
    });
  }
  return sealed === 0 ? text : docs.map((d) => d.toString()).join('');
}
