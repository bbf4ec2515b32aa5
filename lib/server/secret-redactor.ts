/**
 * Known secret values — provider keys, GitHub and Inngest credentials, the admin token, the
 * database password, and every variable exposed to HTTP models — replaced by `[redacted]` in
 * any text before it is stored or logged. A system under test can echo the headers it was
 * sent (an endpoint that answers with its request did exactly that); what it echoes must not
 * end up in a stored reply, a page that shows it, or a log line.
 */
import { formatWithOptions } from 'node:util';
import { alternatives, pattern as regex } from '@/lib/core';

export const REDACTED = '[redacted]';

/** Variables that hold credentials, whatever else is configured. */
export const SECRET_ENV_NAMES = [
  'OPENAI_API_KEY',
  'OPENROUTER_API_KEY',
  'ANTHROPIC_API_KEY',
  'GOOGLE_API_KEY',
  'TOGETHER_API_KEY',
  'GROQ_API_KEY',
  'GITHUB_TOKEN',
  'GITHUB_WEBHOOK_SECRET',
  'GITHUB_APP_PRIVATE_KEY',
  'GITHUB_OAUTH_CLIENT_SECRET',
  'ASSAY_ADMIN_TOKEN',
  'INNGEST_EVENT_KEY',
  'INNGEST_SIGNING_KEY',
  'INNGEST_SIGNING_KEY_FALLBACK',
] as const;

/** Shorter values are not redacted: replacing every "1" or "dev" in a reply would garble it, and such values are not secrets. */
export const MIN_SECRET_LENGTH = 8;

/** Names listed in ASSAY_HTTP_MODEL_ENV (`NAME@origin, …`); their values are sent to HTTP models, so they are secrets too. */
function exposedNames(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((s) => s.trim().split('@')[0]!.trim())
    .filter(Boolean);
}

/** The secret values of an environment (each in the spellings it may appear in). */
export function knownSecrets(env: Readonly<Record<string, string | undefined>>): string[] {
  const out = new Set<string>();
  for (const name of [...SECRET_ENV_NAMES, ...exposedNames(env.ASSAY_HTTP_MODEL_ENV)]) {
    const v = env[name];
    if (!v) continue;
    out.add(v);
    // a PEM given with `\n` escapes is used with real newlines: both spellings, and each line
    if (v.includes('\\n')) out.add(v.replace(/\\n/g, '\n'));
    for (const line of v.replace(/\\n/g, '\n').split('\n')) if (line.length >= 32 && !line.startsWith('-----')) out.add(line);
  }
  const password = databasePassword(env.DATABASE_URL);
  if (password) out.add(password);
  return [...out].filter((s) => s.length >= MIN_SECRET_LENGTH);
}

/**
 * The secret values of this process's environment, as the log redaction and the stored-text
 * redaction need them. Not configuration: every secret variable is read so that its value
 * never reaches a log, a page or a report (the one read of process.env outside the
 * composition root and env.ts that scripts/check-deps.ts allows for this reason).
 */
export function processSecrets(): string[] {
  return knownSecrets(process.env);
}

function databasePassword(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    const p = new URL(url).password;
    return p ? decodeURIComponent(p) : undefined;
  } catch {
    return undefined;
  }
}

export type Redactor = (text: string) => string;

/** One pass over the text with an alternation of the literals, longest first (so a secret containing another is replaced whole). */
export function createRedactor(secrets: readonly string[]): Redactor {
  const usable = [...new Set(secrets.filter((s) => s.length >= MIN_SECRET_LENGTH))].sort((a, b) => b.length - a.length);
  if (usable.length === 0) return (text) => text;
  const pattern = regex('g')`${alternatives(usable)}`;
  return (text) => (typeof text === 'string' && text.length >= MIN_SECRET_LENGTH ? text.replace(pattern, REDACTED) : text);
}

/** Every string inside a JSON-like value, redacted (tool-call arguments, stored JSON). */
export function redactDeep<T>(value: T, redact: Redactor): T {
  if (typeof value === 'string') return redact(value) as T;
  if (Array.isArray(value)) return value.map((v) => redactDeep(v, redact)) as T;
  if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [redact(k), redactDeep(v, redact)])) as T;
  }
  return value;
}

type LogMethod = (...args: unknown[]) => void;
const LOG_METHODS = ['log', 'info', 'warn', 'error', 'debug', 'trace'] as const;
type Console = Record<(typeof LOG_METHODS)[number], LogMethod>;

/**
 * Routes every console method through the redactor: the arguments are formatted as console
 * would format them (errors with their stacks and causes), then redacted, then written.
 */
export function redactConsole(target: Console, redact: Redactor): void {
  for (const method of LOG_METHODS) {
    const original = target[method].bind(target);
    target[method] = (...args: unknown[]) => original(redact(formatWithOptions({ colors: false }, ...args)));
  }
}
