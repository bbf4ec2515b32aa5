/**
 * The base URL of a soev project's system under test: the value of the environment variable the
 * project names (`system.url_env`). Read here, in the composition root, like all configuration;
 * the token and the subject are not read here but by the HTTP model adapter, through the
 * maintainer's ASSAY_HTTP_MODEL_ENV allow-list.
 */
import type { SoevProject } from '@/lib/core';

export function soevSystemBaseUrl(project: SoevProject, env: Record<string, string | undefined> = process.env): string | null {
  return env[project.system.url_env] || null;
}
