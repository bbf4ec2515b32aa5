/**
 * Issue 11: `npm audit` cannot reach an advisory endpoint here, so `npm test` runs an offline
 * dependency check (scripts/check-deps.ts). The real lockfile passes; each way a lockfile can
 * go wrong is caught.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LockfileSchema, lockfileProblems, PolicySchema, type Lockfile, type Manifest } from './check-deps';

const read = (f: string) => JSON.parse(readFileSync(f, 'utf8')) as unknown;
const policy = PolicySchema.parse(read('scripts/dependency-policy.json'));
const manifest = read('package.json') as Manifest;
const lock = LockfileSchema.parse(read('package-lock.json'));
const copy = (): Lockfile => structuredClone(lock);

describe('the offline dependency check', () => {
  it('passes the committed package.json and lockfile', () => {
    expect(lockfileProblems(manifest, lock, policy)).toEqual([]);
  });

  it('catches a git source, a tarball without integrity, an unreviewed install script, a licence off the list and a broken pin', () => {
    const l = copy();
    l.packages['node_modules/left-pad'] = { version: '1.3.0', resolved: 'git+ssh://git@github.com/evil/left-pad.git#abc', license: 'MIT' };
    l.packages['node_modules/tarball'] = { version: '1.0.0', resolved: 'https://evil.example/tarball-1.0.0.tgz', integrity: 'sha1-abc', license: 'MIT' };
    l.packages['node_modules/postinstaller'] = { version: '2.0.0', integrity: 'sha512-x', hasInstallScript: true, license: 'MIT' };
    l.packages['node_modules/copyleft'] = { version: '1.0.0', integrity: 'sha512-y', license: 'AGPL-3.0-only' };
    l.packages['node_modules/@electric-sql/pglite']!.version = '0.5.0';
    const problems = lockfileProblems(manifest, l, policy).join('\n');
    expect(problems).toContain('left-pad@1.3.0 comes from git+ssh://git@github.com/evil/left-pad.git#abc, not the registry');
    expect(problems).toContain('left-pad@1.3.0 has no sha512 integrity');
    expect(problems).toContain('tarball@1.0.0 comes from https://evil.example/tarball-1.0.0.tgz');
    expect(problems).toContain('postinstaller@2.0.0 has an install script that nobody reviewed');
    expect(problems).toContain('copyleft@1.0.0 is licensed "AGPL-3.0-only", not on the allow-list');
    expect(problems).toContain('@electric-sql/pglite is pinned to 0.4.3 (0.5.x (PostgreSQL 18) crashes');
  });

  it('catches a lockfile out of sync with package.json, and a dependency from a git URL', () => {
    const m: Manifest = { ...manifest, dependencies: { ...manifest.dependencies, zod: '^5.0.0', 'from-git': 'github:evil/from-git' } };
    const problems = lockfileProblems(m, lock, policy).join('\n');
    expect(problems).toContain('dependencies.zod: package.json says ^5.0.0, the lockfile ^4.1.0 (run npm install)');
    expect(problems).toContain('dependencies.from-git: github:evil/from-git is not a registry version');
    expect(problems).toContain('dependencies.from-git is not in the lockfile');
  });
});
