/** View model of the blueprint page. Sealed (`test` split) prompts are counted, never shown. */
import type { BlueprintDetail } from '../db/queries/blueprint-detail';

export interface PromptRowView {
  key: string;
  firstUserText: string;
  turns: number;
  pointCount: number;
  weightLabel: string | null;
}

export interface BlueprintPageView {
  id: string;
  title: string;
  description: string | null;
  tags: string[];
  authorLabel: string | null;
  sourceLink: string | null;
  sourceLabel: string;
  errors: { line: number; col: number; message: string }[];
  prompts: PromptRowView[];
  sealedCount: number;
  rawText: string | null;
}

function authorLabel(author: unknown): string | null {
  if (typeof author === 'string') return author;
  if (author && typeof author === 'object' && 'name' in author && typeof author.name === 'string') return author.name;
  return null;
}

export function blueprintPage(d: BlueprintDetail): BlueprintPageView {
  const v = d.latestVersion;
  const prompts = v?.prompts ?? [];
  const visible = prompts.filter((p) => p.split !== 'test');
  const { source } = d;
  const sourceLink =
    source.kind === 'github' && source.owner && source.repo
      ? `https://github.com/${source.owner}/${source.repo}/blob/${v?.sourceCommit ?? source.branch ?? 'main'}/${d.path}`
      : null;
  return {
    id: d.id,
    title: d.title,
    description: d.description,
    tags: d.tags,
    authorLabel: authorLabel(d.author),
    sourceLink,
    sourceLabel: v?.sourceCommit ? `${d.path} @ ${v.sourceCommit.slice(0, 7)}` : d.path,
    errors: Array.isArray(v?.validationErrors) ? (v.validationErrors as { line: number; col: number; message: string }[]) : [],
    prompts: visible.map((p) => {
      const messages = Array.isArray(p.messages) ? (p.messages as { role: string; content: string | null }[]) : [];
      return {
        key: p.promptKey,
        firstUserText: messages.find((m) => m.role === 'user')?.content ?? '',
        turns: messages.length,
        pointCount: p.pointCount,
        weightLabel: p.weight === 1 ? null : `weight ${p.weight}`,
      };
    }),
    sealedCount: prompts.length - visible.length,
    rawText: v?.rawText ?? null,
  };
}
