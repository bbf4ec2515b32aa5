import Link from 'next/link';

export default function RunNotFound() {
  return (
    <div className="space-y-2">
      <h1 className="text-2xl font-semibold">Not found</h1>
      <p className="text-zinc-600 dark:text-zinc-400">There is no such run, prompt, model or point here. Sealed test prompts are never shown.</p>
      <Link href="/" className="underline">
        Back to the leaderboards
      </Link>
    </div>
  );
}
