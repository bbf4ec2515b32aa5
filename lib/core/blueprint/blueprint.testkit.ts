/** Small helpers shared by this module's tests (not exported from the module). */
import { parseBlueprint, type ParseOptions } from './parse';
import type { Blueprint } from './schema';
import type { BlueprintIssue } from './errors';

/** Strips the common indentation so YAML can be written indented inside a test. */
export function yaml(strings: TemplateStringsArray, ...values: unknown[]): string {
  const raw = strings.reduce((out, s, i) => out + s + (i < values.length ? String(values[i]) : ''), '');
  const lines = raw.replace(/^\n/, '').split('\n');
  const indent = Math.min(...lines.filter((l) => l.trim()).map((l) => l.length - l.trimStart().length));
  return lines.map((l) => l.slice(indent)).join('\n');
}

export function load(text: string, options: Partial<ParseOptions> = {}): Blueprint {
  const result = parseBlueprint(text, { file: 'test.yml', ...options });
  if (!result.ok) throw new Error(result.errors.map((e) => `${e.line}:${e.col} ${e.code}: ${e.message}`).join('\n'));
  return result.blueprint;
}

export function loadWithWarnings(text: string, options: Partial<ParseOptions> = {}): { blueprint: Blueprint; warnings: BlueprintIssue[] } {
  const result = parseBlueprint(text, { file: 'test.yml', ...options });
  if (!result.ok) throw new Error(result.errors.map((e) => `${e.line}:${e.col} ${e.code}: ${e.message}`).join('\n'));
  return { blueprint: result.blueprint, warnings: result.warnings };
}

export function errorsOf(text: string, options: Partial<ParseOptions> = {}): BlueprintIssue[] {
  const result = parseBlueprint(text, { file: 'test.yml', ...options });
  if (result.ok) throw new Error('expected the blueprint to be rejected');
  return result.errors;
}

/** `line:col code` of each error, the compact form the tests compare. */
export function where(issues: BlueprintIssue[]): string[] {
  return issues.map((e) => `${e.line}:${e.col} ${e.code}`);
}
