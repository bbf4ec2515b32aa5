/**
 * The architecture half of `npm run deps:check` (scripts/check-deps.ts runs it): three rules
 * of the architecture (docs/architecture.md) that must stay true once made true.
 *   1. One composition root: only lib/server/platform.ts and lib/server/compose/ (with
 *      lib/server/env.ts, which parses the environment) read the configuration: `env()`,
 *      `databaseUrl()`, `parseEnv()` or `process.env`. Use cases and adapters receive what
 *      they need as arguments and ports. The exceptions are listed below, each with its reason.
 *   2. No import cycle between the rooms of lib/server (its top-level folders and files).
 *   3. Every API route handler (app/api/**\/route.ts) goes through `route()` (lib/server/http/route.ts),
 *      where errors are mapped to HTTP once.
 * Pure functions over file texts, so a test can show each rule failing on a bad example.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, posix } from 'node:path';

export interface Source {
  /** Repository-relative, with forward slashes. */
  path: string;
  text: string;
}

// ---------------------------------------------------------------------------------------------
// 1. Who reads the configuration

/** The composition root: the only production code that reads the configuration. */
export const CONFIG_ROOT = ['lib/server/env.ts', 'lib/server/platform.ts', 'lib/server/compose/'];

/** Files outside the root that may read the environment anyway, and why. */
export const CONFIG_EXCEPTIONS: Record<string, string> = {
  'lib/server/secret-redactor.ts': '`processSecrets()` reads every secret variable so that its value is redacted from logs, pages and reports: not configuration',
  'scripts/launch.ts': 'process entry point of `npm run dev`/`npm start`: validates the configuration at start-up and passes the environment on to next (its child, or itself for the in-process dev server)',
  'lib/cli/main.ts': 'the CLI entry point (installs the secret redactor on the console)',
};

/** Facts of the runtime set by Next or Node, not the app's configuration: readable anywhere. */
const RUNTIME_VARIABLES = ['NEXT_RUNTIME', 'NODE_ENV'];

/** Tests, test kits and fakes set up their own environment (a child process's, a test database's). */
export function isTestCode(path: string): boolean {
  return /\.test\.tsx?$/.test(path) || /(^|\/)(testing|test-helpers)\.tsx?$/.test(path) || /\.testkit\.tsx?$/.test(path) || /(^|\/)(testing|fakes)\//.test(path);
}

const ENV_MODULE = /(^|\/)env$/;
const ENV_READERS = new Set(['env', 'databaseUrl', 'parseEnv']);

/** One line per read of the configuration outside the root and the listed exceptions. */
export function configReadProblems(sources: Source[], exceptions: Record<string, string> = CONFIG_EXCEPTIONS): string[] {
  const problems: string[] = [];
  for (const { path, text } of sources) {
    if (CONFIG_ROOT.some((r) => (r.endsWith('/') ? path.startsWith(r) : path === r)) || path in exceptions || isTestCode(path)) continue;
    const code = withoutComments(text);
    for (const m of code.matchAll(/\bprocess\.env\b(?:\.(\w+)|\[['"](\w+)['"]\])?/g)) {
      const name = m[1] ?? m[2];
      if (name && RUNTIME_VARIABLES.includes(name)) continue;
      problems.push(`${path}:${lineOf(code, m.index)}: reads ${m[0]}: configuration is read in the composition root (lib/server/platform.ts or lib/server/compose/), which passes it in`);
    }
    for (const imp of importsOf(code)) {
      if (imp.typeOnly || !ENV_MODULE.test(imp.specifier)) continue;
      for (const name of imp.names.filter((n) => ENV_READERS.has(n))) {
        problems.push(`${path}:${lineOf(code, imp.index)}: imports ${name}() from ${imp.specifier}: configuration is read in the composition root (lib/server/platform.ts or lib/server/compose/), which passes it in`);
      }
    }
  }
  return problems;
}

// ---------------------------------------------------------------------------------------------
// 2. Cycles between the rooms of lib/server

const SERVER = 'lib/server/';
/** Sub-folders that are rooms of their own: the demo seed runs the pipeline (for launch.ts and tests), the queries do not. */
export const SUB_ROOMS = ['lib/server/db/seed/'];

/** The room a lib/server file belongs to: its top-level folder (or file, without extension), or a SUB_ROOM. */
export function roomOf(path: string): string | null {
  if (!path.startsWith(SERVER)) return null;
  const sub = SUB_ROOMS.find((r) => path.startsWith(r));
  if (sub) return sub.slice(SERVER.length, -1);
  const rest = path.slice(SERVER.length);
  const slash = rest.indexOf('/');
  return slash < 0 ? rest.replace(/\.tsx?$/, '') : rest.slice(0, slash);
}

/** `room -> room` with the imports that make each edge, over non-test files. */
export function roomEdges(sources: Source[], exists: (path: string) => boolean): Map<string, Map<string, string[]>> {
  const edges = new Map<string, Map<string, string[]>>();
  for (const { path, text } of sources) {
    const from = roomOf(path);
    if (!from || isTestCode(path)) continue;
    for (const imp of importsOf(withoutComments(text))) {
      const target = resolveImport(path, imp.specifier, exists);
      const to = target && roomOf(target);
      if (!to || to === from) continue;
      const byTarget = edges.get(from) ?? new Map<string, string[]>();
      edges.set(from, byTarget);
      byTarget.set(to, [...(byTarget.get(to) ?? []), `${path} imports ${imp.specifier}`]);
    }
  }
  return edges;
}

/** Each cycle between rooms once (as `a -> b -> a`, with the imports of its first edges), shortest first. */
export function roomCycles(sources: Source[], exists: (path: string) => boolean): string[] {
  const edges = roomEdges(sources, exists);
  const seen = new Set<string>();
  const cycles: string[] = [];
  for (const start of [...edges.keys()].sort()) {
    // breadth-first from each room: the shortest way back to it
    const back = new Map<string, string>();
    const queue = [start];
    while (queue.length) {
      const at = queue.shift()!;
      for (const next of [...(edges.get(at)?.keys() ?? [])].sort()) {
        if (next === start) {
          const path = [start];
          for (let n: string | undefined = at; n && n !== start; n = back.get(n)) path.splice(1, 0, n);
          const key = [...path].sort().join(' ');
          if (!seen.has(key)) {
            seen.add(key);
            const ring = [...path, start];
            const how = ring.slice(0, -1).map((a, i) => `    ${edges.get(a)!.get(ring[i + 1]!)![0]}`);
            cycles.push(`import cycle between rooms of lib/server: ${ring.join(' -> ')}\n${how.join('\n')}`);
          }
          queue.length = 0;
          break;
        }
        if (!back.has(next)) {
          back.set(next, at);
          queue.push(next);
        }
      }
    }
  }
  return cycles;
}

function resolveImport(from: string, specifier: string, exists: (path: string) => boolean): string | null {
  let base: string;
  if (specifier.startsWith('@/')) base = specifier.slice(2);
  else if (specifier.startsWith('.')) base = posix.normalize(posix.join(posix.dirname(from), specifier));
  else return null;
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`]) if (exists(candidate)) return candidate;
  return null;
}

// ---------------------------------------------------------------------------------------------
// 3. API routes through route()

/** Route files that cannot go through route(), and why. */
export const ROUTE_EXCEPTIONS: Record<string, string> = {
  'app/api/inngest/route.ts': "Inngest's own protocol handler (serve from inngest/next): it signs, answers and maps its errors itself",
};

/** Handlers that are built with route() (the webhook's is, in lib/server/github/webhooks/webhook-route.ts). */
const ROUTE_BUILDERS = /\b(route|webhookHandler)\s*\(/;

export function routeProblems(sources: Source[], exceptions: Record<string, string> = ROUTE_EXCEPTIONS): string[] {
  const problems: string[] = [];
  for (const { path, text } of sources) {
    if (!/^app\/api\/.*\/route\.tsx?$/.test(path) || path in exceptions) continue;
    const code = withoutComments(text);
    for (const m of code.matchAll(/export\s+(?:const|let|async\s+function|function)\s+(\{[^}]*\}|\w+)/g)) {
      const methods = (m[1]!.match(/\b(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)\b/g) ?? []).filter((n) => m[1]!.startsWith('{') || n === m[1]);
      if (!methods.length) continue;
      const end = code.indexOf(';', m.index);
      const statement = code.slice(m.index, end < 0 ? undefined : end + 1);
      const viaRoute = /^export\s+(const|let)\s/.test(statement) && ROUTE_BUILDERS.test(statement);
      if (!viaRoute) for (const method of methods) problems.push(`${path}:${lineOf(code, m.index)}: ${method} is not built with route() (lib/server/http/route.ts): errors would not be mapped to HTTP in the one place`);
    }
  }
  return problems;
}

// ---------------------------------------------------------------------------------------------
// Reading the tree, and the shared parsing

interface Import {
  specifier: string;
  names: string[];
  typeOnly: boolean;
  index: number;
}

/** Static imports and re-exports, and dynamic `import('…')`. */
export function importsOf(code: string): Import[] {
  const out: Import[] = [];
  for (const m of code.matchAll(/\b(import|export)\s+(type\s+)?([^'";()=]*?)\s*from\s*['"]([^'"]+)['"]/g)) {
    const clause = m[3] ?? '';
    const braces = /\{([^}]*)\}/.exec(clause);
    const named = braces ? braces[1]!.split(',').map((s) => s.trim()).filter(Boolean) : [];
    const values = named.filter((n) => !n.startsWith('type ')).map((n) => n.split(/\s+as\s+/)[0]!.trim());
    const defaultName = /^([A-Za-z_$][\w$]*)\s*(,|$)/.exec(clause)?.[1];
    out.push({ specifier: m[4]!, names: [...values, ...(defaultName ? [defaultName] : [])], typeOnly: Boolean(m[2]) || (named.length > 0 && values.length === 0 && !defaultName), index: m.index });
  }
  for (const m of code.matchAll(/\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g)) out.push({ specifier: m[1]!, names: ['*'], typeOnly: false, index: m.index });
  return out;
}

/** Comments blanked out (same length, so line numbers hold); strings are left alone. */
function withoutComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\/|(^|[^:'"`\\])\/\/[^\n]*/g, (c, lead: string | undefined) => (lead ?? '') + c.slice((lead ?? '').length).replace(/[^\n]/g, ' '));
}

function lineOf(text: string, index: number): number {
  return text.slice(0, index).split('\n').length;
}

const SCANNED_DIRS = ['lib', 'app', 'components', 'scripts'];
/** Root files that run in the app (tool configs such as playwright.config.ts are not app code). */
const SCANNED_FILES = ['instrumentation.ts', 'proxy.ts'];

export function readSources(root = process.cwd()): Source[] {
  const out: Source[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(join(root, dir))) {
      if (name === 'node_modules' || name.startsWith('.')) continue;
      const rel = `${dir}/${name}`;
      if (statSync(join(root, rel)).isDirectory()) walk(rel);
      else if (/\.tsx?$/.test(name)) out.push({ path: rel, text: readFileSync(join(root, rel), 'utf8') });
    }
  };
  for (const dir of SCANNED_DIRS) if (existsSync(join(root, dir))) walk(dir);
  for (const file of SCANNED_FILES) if (existsSync(join(root, file))) out.push({ path: file, text: readFileSync(join(root, file), 'utf8') });
  return out;
}

/** Every architecture problem of the tree at `root`; empty when all is well. */
export function architectureProblems(root = process.cwd()): string[] {
  const sources = readSources(root);
  const exists = (p: string) => existsSync(join(root, p)) && statSync(join(root, p)).isFile();
  return [...configReadProblems(sources), ...roomCycles(sources, exists), ...routeProblems(sources)];
}

export const ARCHITECTURE_RULES = 'configuration read only in the composition root, no import cycle between the rooms of lib/server, every API route through route()';
