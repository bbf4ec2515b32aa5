import type { Metadata } from 'next';
import { AuthorWorkspace } from '@/components/author/author-workspace';
import { listExampleNames, readExample } from '@/lib/server/authoring/examples';
import { currentUser } from '../admin/session';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Write a blueprint', robots: { index: false } };

/** `/author?example=<file>` starts from an example blueprint. (Skeleton for issue 16.) */
export default async function AuthorPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  const exampleName = typeof params.example === 'string' ? params.example : null;
  const [user, examples, example] = await Promise.all([currentUser(), listExampleNames(), exampleName ? readExample(exampleName) : null]);
  return (
    <AuthorWorkspace
      initialYaml={example?.yaml ?? ''}
      initialName={example ? `blueprints/${example.name}` : 'blueprints/my-blueprint.yml'}
      examples={examples}
      login={user?.githubLogin ?? null}
    />
  );
}
