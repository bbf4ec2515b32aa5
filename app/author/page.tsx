import type { Metadata } from 'next';
import { AuthorWorkspace } from '@/components/author/author-workspace';
import { authoringCatalog } from '@/lib/core';
import { readBlueprintCopy } from '@/lib/server/authoring/blueprint-copy';
import { DraftList } from '@/components/author/draft-list';
import { DraftNameSchema, listDrafts } from '@/lib/server/authoring/drafts';
import { listExampleNames, readExample } from '@/lib/server/authoring/examples';
import { getDb } from '@/lib/server/compose/database';
import { signInSettings } from '@/lib/server/compose/site';
import { authorSignInView } from '@/lib/views/sign-in-view';
import { currentUser } from '../admin/session';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Write a blueprint', robots: { index: false } };

const one = (v: string | string[] | undefined) => (typeof v === 'string' && v !== '' ? v : null);

/**
 * `/author?example=<file>` starts from an example blueprint, `?from=<blueprint id>` from a copy
 * of a blueprint's source (sealed prompts taken out), `?draft=<name>` reopens a saved draft.
 * `?connectError=` or `?error=` says why "Connect GitHub" or signing in came back without it.
 */
export default async function AuthorPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  const exampleName = one(params.example);
  const fromId = one(params.from);
  const draftName = DraftNameSchema.safeParse(one(params.draft)).data ?? null;
  const [user, examples, example, copy] = await Promise.all([
    currentUser(),
    listExampleNames(),
    exampleName ? readExample(exampleName) : null,
    fromId ? readBlueprintCopy(getDb(), fromId) : null,
  ]);
  const start = copy?.ok
    ? { yaml: copy.yaml, name: copy.name, origin: copy.sealedRemoved ? 'a copy of the published file, without its sealed test prompts (re-written from the parsed file, so its comments are gone)' : 'a copy of the published file' }
    : example
      ? { yaml: example.yaml, name: `blueprints/${example.name}`, origin: 'an example' }
      : { yaml: '', name: draftName ?? 'blueprints/my-blueprint.yml', origin: null };
  const drafts = user ? await listDrafts(getDb(), user.id) : [];
  const startNotice = copy && !copy.ok ? copy.reason : exampleName && !example ? `There is no example named ${exampleName}.` : null;
  const notice = [one(params.connectError) ?? one(params.error), startNotice].filter((n) => n !== null).join(' ') || null;
  // signing in comes back to this same page (its example, copy or draft), without the messages
  const kept = new URLSearchParams(Object.entries(params).flatMap(([k, v]) => (typeof v === 'string' && k !== 'connectError' && k !== 'error' ? [[k, v]] : [])));
  const returnTo = `/author${kept.size ? `?${kept}` : ''}`;
  return (
    <>
      <DraftList drafts={drafts} current={draftName} />
      <AuthorWorkspace initialYaml={start.yaml} initialName={start.name} examples={examples} login={user?.githubLogin ?? null} origin={start.origin} notice={notice} catalog={authoringCatalog()} signIn={authorSignInView(signInSettings(), returnTo)} />
    </>
  );
}
