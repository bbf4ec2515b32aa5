/**
 * Part of the composition root: the providers' configuration (keys, base URLs, the HTTP-model
 * allow-lists, the secrets to redact) from environment variables, for resolveModel
 * (providers/resolve.ts). compose/run-deps.ts passes it process.env.
 */
import { PROVIDER_NAMES, PROVIDERS } from '../providers/catalog';
import { HEADER_ENV_LIST, ORIGINS_ENV } from '../providers/custom-http';
import { exposedVariables } from '../providers/custom-http-env';
import type { ProviderConfig } from '../providers/resolve';
import { knownSecrets } from '../secret-redactor';

const list = (v: string | undefined): string[] =>
  (v ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/**
 * ProviderConfig from environment variables (the validated Env, plus the variables it does not
 * know yet: *_BASE_URL of local servers, ASSAY_HTTP_MODEL_ORIGINS, ASSAY_HTTP_MODEL_ENV and the
 * variables that list names). Pure: the caller decides where the record comes from.
 */
export function providerConfigFromEnv(env: Readonly<Record<string, string | undefined>>): ProviderConfig {
  const keys: ProviderConfig['keys'] = {};
  const baseUrls: ProviderConfig['baseUrls'] = {};
  for (const name of PROVIDER_NAMES) {
    const entry: { keyEnv: string; baseUrlEnv?: string } = PROVIDERS[name];
    const key = env[entry.keyEnv];
    if (key) keys[name] = key;
    const url = entry.baseUrlEnv ? env[entry.baseUrlEnv] : undefined;
    if (url) baseUrls[name] = url;
  }
  const secrets = knownSecrets(env);
  return {
    keys,
    baseUrls,
    ...(env.ASSAY_LLM_BASE_URL ? { baseUrlOverride: env.ASSAY_LLM_BASE_URL } : {}),
    custom: { allowedOrigins: list(env[ORIGINS_ENV]), env: exposedVariables(env, HEADER_ENV_LIST) },
    ...(secrets.length ? { secrets } : {}),
  };
}
