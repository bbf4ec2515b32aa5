/**
 * The signed-in author's drafts (lib/server/authoring/drafts.ts).
 *   GET              → { drafts: [{ name, updatedAt, bytes }] }
 *   GET ?name=<file> → { draft: { name, yaml, updatedAt } }
 *   PUT { name, yaml } → { draft } (created or replaced: the editor's autosave)
 *   DELETE ?name=<file>
 * The session cookie authenticates; a state-changing request must come from our own pages
 * (principalOf's same-origin check); writes are rate limited per author.
 */
import { z } from 'zod';
import { route } from '@/lib/server/http';
import { getDb } from '@/lib/server/compose/database';
import { authenticate } from '@/lib/server/platform';
import { deleteDraft, DraftBodySchema, DraftNameSchema, draftOwner, DraftSchema, DraftSummarySchema, getDraft, listDrafts, MAX_DRAFT_BYTES, saveDraft } from '@/lib/server/authoring/drafts';

export const dynamic = 'force-dynamic';

const owner = async (request: Request) => draftOwner(await authenticate(request));
const noStore = { 'cache-control': 'no-store' };

export const GET = route(
  { authenticate: owner, query: z.object({ name: DraftNameSchema.optional() }), response: z.union([z.object({ drafts: z.array(DraftSummarySchema) }), z.object({ draft: DraftSchema })]), headers: noStore },
  async ({ principal: userId, query }) => (query.name ? { draft: await getDraft(getDb(), userId, query.name) } : { drafts: await listDrafts(getDb(), userId) }),
);

export const PUT = route(
  // the JSON envelope and escapes add to the text: leave room above the draft limit itself
  { authenticate: owner, body: DraftBodySchema, maxBodyBytes: 2 * MAX_DRAFT_BYTES + 4096, response: z.object({ draft: DraftSchema.omit({ yaml: true }) }), headers: noStore },
  async ({ principal: userId, body }) => {
    const d = await saveDraft(getDb(), userId, body);
    return { draft: { name: d.name, updatedAt: d.updatedAt } };
  },
);

export const DELETE = route(
  { authenticate: owner, query: z.object({ name: DraftNameSchema }), response: z.object({ ok: z.literal(true) }), headers: noStore },
  async ({ principal: userId, query }) => {
    await deleteDraft(getDb(), userId, query.name);
    return { ok: true as const };
  },
);
