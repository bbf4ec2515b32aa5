import { getDb } from '@/lib/server/context';
import { listBlueprints } from '@/lib/server/db/queries/blueprint-list';
import { blueprintCards } from '@/lib/server/views/blueprint-list-view';
import { BlueprintList } from '@/components/blueprint-list';

export const dynamic = 'force-dynamic';

export default async function HomePage() {
  const items = blueprintCards(await listBlueprints(getDb()));
  return (
    <div className="space-y-6">
      <section>
        <h1 className="text-2xl font-semibold tracking-tight">Blueprints</h1>
        <p className="mt-1 text-zinc-600 dark:text-zinc-400">
          {items.length} {items.length === 1 ? 'blueprint' : 'blueprints'}: prompts and the criteria that grade the replies.
        </p>
      </section>
      <BlueprintList items={items} />
    </div>
  );
}
