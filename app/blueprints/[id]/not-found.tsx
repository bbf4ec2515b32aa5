import Link from 'next/link';

export default function BlueprintNotFound() {
  return (
    <div className="space-y-2">
      <h1 className="text-2xl font-semibold">Not found</h1>
      <p className="text-zinc-600 dark:text-zinc-400">There is no blueprint at this address. Its id comes from its path in the repository (`a/b.yml` is `a__b`).</p>
      <Link href="/#blueprints-h" className="underline">
        See every blueprint
      </Link>
    </div>
  );
}
