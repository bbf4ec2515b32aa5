/**
 * ASSAY_HTTP_MODEL_ENV: which environment variables HTTP models may send as headers, and to
 * which origins each may go — `NAME@https://host[:port]`, comma-separated, a name repeated for
 * more than one origin. A variable is sent only to its own origins, so a token meant for one
 * team's endpoint never reaches another allow-listed one.
 */

export interface ExposedVariable {
  value: string | undefined;
  /** Origins (`https://bot.example.org`) this variable may be sent to. */
  origins: readonly string[];
}

const NAME = /^[A-Z_][A-Z0-9_]*$/;

/** Parses the list; throws with the entry and the fix. */
export function parseHttpModelEnv(value: string | undefined): Map<string, string[]> {
  const bound = new Map<string, string[]>();
  for (const entry of (value ?? '').split(',').map((s) => s.trim()).filter(Boolean)) {
    const at = entry.indexOf('@');
    const name = at === -1 ? entry : entry.slice(0, at);
    if (!NAME.test(name)) throw new Error(`"${entry}": ${name || '(empty)'} is not an environment variable name`);
    if (at === -1) throw new Error(`"${entry}" has no origin: bind it to the endpoint that may receive it, e.g. ${name}@https://bot.example.org`);
    let origin: string;
    try {
      const url = new URL(entry.slice(at + 1));
      if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error('not http(s)');
      origin = url.origin;
    } catch {
      throw new Error(`"${entry}": ${entry.slice(at + 1) || '(empty)'} is not an http(s) origin such as https://bot.example.org`);
    }
    bound.set(name, [...(bound.get(name) ?? []), origin]);
  }
  return bound;
}

/** The exposed variables with their values, from an environment record. */
export function exposedVariables(env: Readonly<Record<string, string | undefined>>, listVar: string): Record<string, ExposedVariable> {
  return Object.fromEntries([...parseHttpModelEnv(env[listVar])].map(([name, origins]) => [name, { value: env[name], origins }]));
}
