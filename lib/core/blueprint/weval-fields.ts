/**
 * Weval fields that Assay used to pass through unread (compared with Weval's own parser and
 * its external-service client): a prompt's own `temperature`, and the header's
 * `externalServices` (the services `$call`/`$external` points post to). Read and checked
 * here, so a typo is a load-time error at its position rather than a failure mid-run.
 */
import type { Issues } from './errors';
import { describe, entry, str, toJS, type YMap, type YNode } from './positions';

/** The HTTP methods Weval's external-service client sends (its default is POST). */
const SERVICE_METHODS = ['GET', 'POST', 'PUT'] as const;

/** A prompt's `temperature` (0 to 2), which replaces the blueprint's temperatures for it; null when absent. */
export function promptTemperatureOf(prompt: YMap, issues: Issues): number | null {
  const node = entry(prompt, 'temperature')?.value;
  if (!node || (node.kind === 'scalar' && node.value === null)) return null;
  if (node.kind === 'scalar' && typeof node.value === 'number' && node.value >= 0 && node.value <= 2) return node.value;
  issues.error(node.loc, 'schema', `a prompt's \`temperature\` must be a number from 0 to 2, not ${JSON.stringify(toJS(node))}`, 'Write e.g. `temperature: 0.7`; this prompt then runs at that temperature only, whatever the blueprint\'s `temperatures`.');
  return null;
}

/**
 * `externalServices: { <name>: { url, method?, headers?, timeout_ms?, … } }`: each service
 * needs an absolute http(s) URL and, if it gives one, a method Weval sends (GET, POST, PUT).
 */
export function checkExternalServices(node: YNode | undefined, issues: Issues): void {
  if (!node || (node.kind === 'scalar' && node.value === null)) return;
  const hint = 'Write `externalServices:\\n  checker:\\n    url: https://checker.example/score\\n    method: POST`.';
  if (node.kind !== 'map') {
    issues.error(node.loc, 'schema', `\`externalServices\` must be a mapping from service names to { url, method? }, not ${describe(node)}`, hint);
    return;
  }
  for (const service of node.entries) {
    const config = service.value;
    if (config.kind !== 'map') {
      issues.error(config.loc, 'schema', `external service \`${service.key}\` must be a mapping with a \`url\`, not ${describe(config)}`, hint);
      continue;
    }
    const url = entry(config, 'url')?.value;
    const text = url ? str(url) : undefined;
    if (!url || text === undefined || !isHttpUrl(text)) {
      issues.error((url ?? config).loc, 'schema', url ? `external service \`${service.key}\` has an invalid url ${JSON.stringify(toJS(url))}` : `external service \`${service.key}\` needs a \`url\``, 'Give an absolute http(s) URL, e.g. `url: https://checker.example/score`.');
    }
    const method = entry(config, 'method')?.value;
    if (method && !(method.kind === 'scalar' && method.value === null) && !(SERVICE_METHODS as readonly string[]).includes(String(str(method) ?? '').toUpperCase())) {
      issues.error(method.loc, 'schema', `external service \`${service.key}\` has method ${JSON.stringify(toJS(method))}; Weval sends only ${SERVICE_METHODS.join(', ')}`, 'Write `method: POST` (the default when left out), `GET` or `PUT`.');
    }
  }
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}
