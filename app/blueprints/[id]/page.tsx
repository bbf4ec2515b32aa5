import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { getDb } from '@/lib/server/context';
import { getBlueprintDetail } from '@/lib/server/db/queries/blueprint-detail';
import { blueprintPage } from '@/lib/server/views/blueprint-view';
import { BlueprintHeader, PromptTable, ValidationErrors } from '@/components/blueprint-page';

export const dynamic = 'force-dynamic';

type Props = { params: Promise<{ id: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { id } = await params;
  const d = await getBlueprintDetail(getDb(), decodeURIComponent(id));
  return { title: d?.title ?? 'Blueprint' };
}

export default async function BlueprintPage({ params }: Props) {
  const { id } = await params;
  const detail = await getBlueprintDetail(getDb(), decodeURIComponent(id));
  if (!detail) notFound();
  const view = blueprintPage(detail);
  return (
    <div className="space-y-8">
      <BlueprintHeader view={view} />
      <ValidationErrors view={view} />
      <PromptTable view={view} />
    </div>
  );
}
