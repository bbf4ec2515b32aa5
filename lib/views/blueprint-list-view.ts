/** View model of the home page's blueprint list: labels and ordering decided here, not in JSX. */
import type { BlueprintListItem } from '@/lib/server/db/queries/blueprint-list';
import { plainText, plural } from './format';

export interface BlueprintCardView {
  id: string;
  href: string;
  title: string;
  description: string | null;
  tags: string[];
  promptCountLabel: string;
  errorLabel: string | null;
}

export function blueprintCards(items: BlueprintListItem[]): BlueprintCardView[] {
  return items.map((b) => ({
    id: b.id,
    href: `/blueprints/${encodeURIComponent(b.id)}`,
    title: b.title,
    // the description is Markdown; a card shows its words only
    description: b.description ? plainText(b.description) : null,
    tags: [...b.tags].sort((x, y) => x.localeCompare(y)),
    // a retrieval blueprint has no prompts: its size is its queries over a corpus
    promptCountLabel: b.retrieval ? `${plural(b.retrieval.queries, 'query', 'queries')} over ${plural(b.retrieval.documents, 'document')}` : plural(b.promptCount, 'prompt'),
    errorLabel: b.valid ? null : `invalid (${b.errorCount} ${b.errorCount === 1 ? 'error' : 'errors'})`,
  }));
}
