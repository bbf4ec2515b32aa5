import Link from 'next/link';

export default function NotFound() {
  return (
    <div className="space-y-2">
      <h1 className="text-2xl font-semibold">Not found</h1>
      <p className="text-zinc-600 dark:text-zinc-400">There is nothing at this address.</p>
      <Link href="/" className="underline">
        Back to the blueprints
      </Link>
    </div>
  );
}
