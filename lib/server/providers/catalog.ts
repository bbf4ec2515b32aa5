/**
 * The providers Assay knows by model-id prefix (`openai:gpt-4o-mini`, as Weval writes ids).
 * The OpenAI-compatible ones differ only by base URL and key variable, so adding one is a
 * line here, not a module.
 */
export type ProviderApi = 'openai' | 'anthropic' | 'google';

export interface ProviderEntry {
  api: ProviderApi;
  baseUrl: string;
  /** The environment variable that holds the key (named in every "missing key" error). */
  keyEnv: string;
  /** Local servers (vLLM, Ollama, LM Studio) accept any key or none. */
  keyRequired: boolean;
  /** The environment variable that moves a local server elsewhere. */
  baseUrlEnv?: string;
}

export const PROVIDERS = {
  openai: { api: 'openai', baseUrl: 'https://api.openai.com/v1', keyEnv: 'OPENAI_API_KEY', keyRequired: true },
  openrouter: { api: 'openai', baseUrl: 'https://openrouter.ai/api/v1', keyEnv: 'OPENROUTER_API_KEY', keyRequired: true },
  together: { api: 'openai', baseUrl: 'https://api.together.xyz/v1', keyEnv: 'TOGETHER_API_KEY', keyRequired: true },
  groq: { api: 'openai', baseUrl: 'https://api.groq.com/openai/v1', keyEnv: 'GROQ_API_KEY', keyRequired: true },
  vllm: { api: 'openai', baseUrl: 'http://127.0.0.1:8000/v1', keyEnv: 'VLLM_API_KEY', keyRequired: false, baseUrlEnv: 'VLLM_BASE_URL' },
  ollama: { api: 'openai', baseUrl: 'http://127.0.0.1:11434/v1', keyEnv: 'OLLAMA_API_KEY', keyRequired: false, baseUrlEnv: 'OLLAMA_BASE_URL' },
  lmstudio: { api: 'openai', baseUrl: 'http://127.0.0.1:1234/v1', keyEnv: 'LMSTUDIO_API_KEY', keyRequired: false, baseUrlEnv: 'LMSTUDIO_BASE_URL' },
  anthropic: { api: 'anthropic', baseUrl: 'https://api.anthropic.com', keyEnv: 'ANTHROPIC_API_KEY', keyRequired: true },
  google: { api: 'google', baseUrl: 'https://generativelanguage.googleapis.com', keyEnv: 'GOOGLE_API_KEY', keyRequired: true },
} as const satisfies Record<string, ProviderEntry>;

export type ProviderName = keyof typeof PROVIDERS;
export const PROVIDER_NAMES = Object.keys(PROVIDERS) as ProviderName[];

export function isProviderName(name: string): name is ProviderName {
  return Object.hasOwn(PROVIDERS, name);
}
