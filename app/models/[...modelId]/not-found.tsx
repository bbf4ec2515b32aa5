import Link from 'next/link';

export default function ModelNotFound() {
  return (
    <div className="space-y-2">
      <h1 className="text-2xl font-semibold">Not found</h1>
      <p className="text-zinc-600 dark:text-zinc-400">No model with this id has been run. Model ids look like <code>openrouter:openai/gpt-4o</code>.</p>
      <Link href="/" className="underline">
        Back to the leaderboards
      </Link>
    </div>
  );
}
