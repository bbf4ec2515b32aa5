/**
 * Known secrets redacted from stored text as the reader queries return it. Text is redacted
 * before it is stored (providers/redacting-client.ts), but a row stored before that existed,
 * or before a secret was configured, would still show the secret on a page: the queries that
 * read reply text, verdict explanations and judge reasoning for pages pass it through this.
 * Built per query call (one regex over a handful of values), so a changed environment counts.
 */
import { createRedactor, knownSecrets, processSecrets, redactDeep, type Redactor } from '../../secret-redactor';

/** Null when no secret is configured: then nothing is copied. */
export function storedTextRedactor(env?: Readonly<Record<string, string | undefined>>): Redactor | null {
  const secrets = env ? knownSecrets(env) : processSecrets();
  return secrets.length ? createRedactor(secrets) : null;
}

/** Every string inside a query's result, redacted (Dates, Decimals and other objects are left as they are). */
export function redactStored<T>(value: T, redact: Redactor | null): T {
  return redact ? redactDeep(value, redact) : value;
}

