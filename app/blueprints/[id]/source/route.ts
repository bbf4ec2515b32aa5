/**
 * The blueprint's whole source file (latest version, sealed prompts taken out) as plain text:
 * `text/plain` with nosniff, so a browser never renders it as HTML.
 */
import { getDb } from '@/lib/server/compose/database';
import { getBlueprintSource } from '@/lib/server/db/queries/blueprint-source';
import { decodeSegment } from '@/lib/views/urls';
import { blueprintVisibleTo } from '@/lib/server/runs/draft-visibility';
import { currentUser } from '../../../admin/session';

export const dynamic = 'force-dynamic';

export async function GET(_req: Request, { params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const blueprintId = decodeSegment(id);
  const headers = { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff', 'cache-control': 'no-store' };
  // an author's draft (try it) is not published: the same 404 as no blueprint, for everyone but its author and maintainers
  const visible = await blueprintVisibleTo(getDb(), blueprintId, await currentUser());
  const source = visible ? await getBlueprintSource(getDb(), blueprintId) : null;
  if (!source) return new Response('No such blueprint.\n', { status: 404, headers });
  if (source.text === null) return new Response('This source contains sealed prompts and cannot be shown.\n', { status: 403, headers });
  return new Response(source.text, { status: 200, headers });
}
