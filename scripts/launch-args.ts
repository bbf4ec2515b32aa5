/**
 * The launcher's own reading of `next`'s port option: `npm run dev -- -p 3001` (or `--port
 * 3001`, `--port=3001`) must win over PORT, and the launcher must pass `next` one `--port`,
 * not two that disagree.
 */
export function portFromArgs(args: readonly string[]): { port: number | null; rest: string[] } {
  const rest: string[] = [];
  let port: string | null = null;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '-p' || a === '--port') {
      const value = args[i + 1];
      if (value === undefined) throw new Error(`${a} needs a port number, e.g. ${a} 3001`);
      port = value;
      i++;
    } else if (a.startsWith('--port=')) port = a.slice('--port='.length);
    else if (/^-p\d+$/.test(a)) port = a.slice(2);
    else rest.push(a);
  }
  if (port === null) return { port: null, rest };
  const n = Number(port);
  if (!Number.isInteger(n) || n < 1 || n > 65535) throw new Error(`the port must be a whole number from 1 to 65535, not "${port}"`);
  return { port: n, rest };
}
