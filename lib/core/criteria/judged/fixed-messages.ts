/**
 * Reading a project's fixed messages (`messages:` key → text) in a reply, deterministically:
 * a message counts as given when its text appears in the reply, ignoring case, Unicode width
 * forms and runs of whitespace (a system may wrap or re-case the text, never reword it).
 */
function normalised(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();
}

export function containsMessage(reply: string, message: string): boolean {
  const m = normalised(message);
  return m !== '' && normalised(reply).includes(m);
}

/** The keys whose text the reply contains, in the order the messages are written. */
export function messagesIn(reply: string, messages: Readonly<Record<string, string>>): string[] {
  return Object.entries(messages).flatMap(([key, text]) => (containsMessage(reply, text) ? [key] : []));
}

/** `a.b.0.c` in a parsed JSON body; undefined where the path leads nowhere. */
export function atPath(body: unknown, path: string): unknown {
  let at: unknown = body;
  for (const part of path.split('.')) {
    if (at === null || typeof at !== 'object') return undefined;
    at = Array.isArray(at) ? at[Number(part)] : (at as Record<string, unknown>)[part];
  }
  return at;
}
