/**
 * The offline dependency check (`npm run deps:check`, part of `npm test`). `npm audit` needs an
 * advisory endpoint that CI cannot reach; this checks what can be known from the lockfile and
 * node_modules alone, against the reviewed policy in scripts/dependency-policy.json:
 *   - the installed tree is exactly the lockfile's (`npm ls --all`: nothing missing, invalid or extraneous);
 *   - the lockfile is in sync with package.json (same specs, every direct dependency locked);
 *   - every package comes from the registry with an sha512 integrity (no git, http, file or tarball sources);
 *   - only reviewed packages have install scripts;
 *   - every licence is on the allow-list, or the package is a reviewed exception;
 *   - the documented pins hold (package.json and the lockfile both name the pinned version).
 * And the architecture rules of scripts/check-architecture.ts (configuration read only in the
 * composition root, no import cycle between the rooms of lib/server, API routes through route()).
 * It does not know about vulnerabilities published after the lockfile was reviewed: that still
 * needs `npm audit` (or an advisory mirror) where the network allows it.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { architectureProblems, ARCHITECTURE_RULES } from './check-architecture';

export const PolicySchema = z.object({
  registry: z.url(),
  licenses: z.array(z.string()),
  licenseExceptions: z.record(z.string(), z.string()),
  installScripts: z.record(z.string(), z.string()),
  pins: z.record(z.string(), z.object({ version: z.string(), why: z.string() })),
});
export type Policy = z.infer<typeof PolicySchema>;

const LockEntry = z
  .object({
    version: z.string().optional(),
    resolved: z.string().optional(),
    integrity: z.string().optional(),
    license: z.unknown().optional(),
    hasInstallScript: z.boolean().optional(),
    inBundle: z.boolean().optional(),
    link: z.boolean().optional(),
    dependencies: z.record(z.string(), z.string()).optional(),
    devDependencies: z.record(z.string(), z.string()).optional(),
    optionalDependencies: z.record(z.string(), z.string()).optional(),
  })
  .loose();
export const LockfileSchema = z.object({ lockfileVersion: z.number(), packages: z.record(z.string(), LockEntry) });
export type Lockfile = z.infer<typeof LockfileSchema>;

const Manifest = z
  .object({ dependencies: z.record(z.string(), z.string()).optional(), devDependencies: z.record(z.string(), z.string()).optional(), optionalDependencies: z.record(z.string(), z.string()).optional() })
  .loose();
export type Manifest = z.infer<typeof Manifest>;

/** `node_modules/a/node_modules/@b/c` → `@b/c`. */
export function packageName(path: string): string {
  return path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);
}

const matches = (name: string, pattern: string) => (pattern.endsWith('*') ? name.startsWith(pattern.slice(0, -1)) : name === pattern);

/** Every licence id in an SPDX expression such as `(Apache-2.0 AND BSD-3-Clause)`. */
function licenceIds(license: unknown): string[] {
  if (typeof license !== 'string' || license.trim() === '') return [];
  return license.replace(/[()]/g, ' ').split(/\s+(?:AND|OR|WITH)\s+|\s+/).filter(Boolean);
}

const NON_REGISTRY_SPEC = /^(git\+|git:|github:|gitlab:|bitbucket:|https?:|file:|link:)|^[\w.-]+\/[\w.-]+(#.*)?$|\.tgz$/;

/** What is wrong with the lockfile and manifest under the policy; empty when all is well. */
export function lockfileProblems(manifest: Manifest, lock: Lockfile, policy: Policy): string[] {
  const problems: string[] = [];
  if (lock.lockfileVersion < 3) problems.push(`lockfileVersion ${lock.lockfileVersion}: regenerate with npm ≥ 9 (lockfile v3)`);
  const root = lock.packages[''] ?? {};
  for (const field of ['dependencies', 'devDependencies', 'optionalDependencies'] as const) {
    const want = manifest[field] ?? {};
    const have = root[field] ?? {};
    for (const [name, spec] of Object.entries(want)) {
      if (have[name] !== spec) problems.push(`${field}.${name}: package.json says ${spec}, the lockfile ${have[name] ?? 'nothing'} (run npm install)`);
      if (NON_REGISTRY_SPEC.test(spec)) problems.push(`${field}.${name}: ${spec} is not a registry version`);
      if (!lock.packages[`node_modules/${name}`]) problems.push(`${field}.${name} is not in the lockfile (run npm install)`);
    }
    for (const name of Object.keys(have)) if (!(name in want)) problems.push(`${field}.${name} is in the lockfile but not in package.json (run npm install)`);
  }
  for (const [path, entry] of Object.entries(lock.packages)) {
    if (path === '' || entry.link) continue;
    const name = packageName(path);
    const at = `${name}@${entry.version ?? '?'}`;
    if (entry.resolved !== undefined && !entry.resolved.startsWith(policy.registry)) problems.push(`${at} comes from ${entry.resolved}, not the registry`);
    if (!entry.inBundle && !/^sha512-/.test(entry.integrity ?? '')) problems.push(`${at} has no sha512 integrity (a git or tarball source?)`);
    if (entry.hasInstallScript && !Object.keys(policy.installScripts).some((p) => matches(name, p))) {
      problems.push(`${at} has an install script that nobody reviewed: read it, then add it to installScripts in scripts/dependency-policy.json`);
    }
    const ids = licenceIds(entry.license);
    const excepted = Object.keys(policy.licenseExceptions).some((p) => matches(name, p));
    if (!excepted && (ids.length === 0 || ids.some((id) => !policy.licenses.includes(id)))) {
      problems.push(`${at} is licensed ${JSON.stringify(entry.license ?? 'UNKNOWN')}, not on the allow-list`);
    }
  }
  for (const [name, pin] of Object.entries(policy.pins)) {
    const locked = lock.packages[`node_modules/${name}`]?.version;
    if (locked !== pin.version) problems.push(`${name} is pinned to ${pin.version} (${pin.why}), the lockfile has ${locked ?? 'nothing'}`);
    const spec = manifest.dependencies?.[name] ?? manifest.devDependencies?.[name];
    if (spec !== undefined && spec !== pin.version && !spec.startsWith('^') && !spec.startsWith('~')) problems.push(`${name}: package.json says ${spec}, the pin is ${pin.version}`);
    if (spec !== undefined && (spec.startsWith('^') || spec.startsWith('~')) && spec.slice(1) !== pin.version) problems.push(`${name}: package.json range ${spec} does not start at the pin ${pin.version}`);
  }
  return problems;
}

/** `npm ls --all`: the installed tree against the lockfile (offline: it reads node_modules). */
export function installedTreeProblems(cwd = process.cwd()): string[] {
  let out: string;
  try {
    out = execFileSync('npm', ['ls', '--all', '--json'], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 });
  } catch (e) {
    out = (e as { stdout?: string }).stdout ?? '';
    if (!out) return [`npm ls --all failed: ${(e as Error).message}`];
  }
  const tree = JSON.parse(out) as { problems?: string[] };
  return tree.problems ?? [];
}

function main(): number {
  const read = (f: string) => JSON.parse(readFileSync(f, 'utf8')) as unknown;
  const policy = PolicySchema.parse(read('scripts/dependency-policy.json'));
  const problems = [...lockfileProblems(Manifest.parse(read('package.json')), LockfileSchema.parse(read('package-lock.json')), policy), ...installedTreeProblems()];
  if (problems.length) {
    console.error(`deps: ${problems.length} problem(s):\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    return 1;
  }
  const architecture = architectureProblems();
  if (architecture.length) {
    console.error(`architecture: ${architecture.length} problem(s):\n${architecture.map((p) => `  - ${p}`).join('\n')}`);
    return 1;
  }
  console.log(`architecture: ${ARCHITECTURE_RULES}: all hold`);
  const count = Object.keys((read('package-lock.json') as Lockfile).packages).length - 1;
  console.log(`deps: ${count} locked packages: tree matches the lockfile, registry sources with integrity, reviewed install scripts and licences, ${Object.keys(policy.pins).length} pins hold`);
  return 0;
}

if (process.argv[1]?.endsWith('check-deps.ts')) process.exit(main());
