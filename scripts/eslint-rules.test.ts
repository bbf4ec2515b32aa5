/**
 * The rooms' import rules (eslint.config.mjs) firing on deliberately bad files, and staying
 * quiet on good ones: each file is linted as if it sat at its path in the repository, through
 * ESLint's own Node API and the project's config, so a rule that is mistyped, shadowed by a
 * later config block or scoped to the wrong folder fails here.
 */
import { fileURLToPath } from 'node:url';
import { ESLint, type Linter } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
const TEST_KIT = /Test kits, fakes and test runners are for tests/;
const COMPONENT = /Components are presentational: .* never import server code/;
const VIEW = /lib\/views is pure/;
const VIEW_QUERY = /lib\/views may import only the types of lib\/server\/db\/queries/;

let eslint: ESLint;
beforeAll(() => {
  eslint = new ESLint({ cwd: REPO_ROOT });
});

async function lint(filePath: string, code: string): Promise<Linter.LintMessage[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages;
}

/** The import messages of one rule, as `line: message` so a failure shows which import. */
const fired = (messages: Linter.LintMessage[], rule: string) => messages.filter((m) => m.ruleId === rule).map((m) => `${m.line}: ${m.message}`);
const KIT_RULE = '@typescript-eslint/no-restricted-imports';
const LAYER_RULE = 'no-restricted-imports';

describe('test kits stay out of production code', () => {
  const bad = [
    "import { describe } from 'vitest';",
    "import { freshDatabase } from '@/lib/server/db/db.testkit';",
    "import { fakeDeps } from '../runs/runs.testkit';",
    "import { startFakeLlm } from '@/testing/fakes/llm-server';",
    "import { FakeGitHub } from '../../../testing/fakes/github-server';",
    "import { t } from '@inngest/test';",
    'export const all = [describe, freshDatabase, fakeDeps, startFakeLlm, FakeGitHub, t];',
  ].join('\n');

  it.each(['lib/server/github/bad-production.ts', 'lib/core/scoring/bad-production.ts', 'components/bad-production.tsx', 'app/bad/page.tsx'])(
    'fails a non-test file that imports them (%s)',
    async (filePath) => {
      const messages = fired(await lint(filePath, bad), KIT_RULE);
      expect(messages).toHaveLength(6);
      for (const m of messages) expect(m).toMatch(TEST_KIT);
      expect(messages.map((m) => Number(m.split(':')[0]))).toEqual([1, 2, 3, 4, 5, 6]);
    },
  );

  it.each(['lib/server/github/good.test.ts', 'lib/server/github/good.testkit.ts', 'components/good.test.tsx'])('lets a test or a test kit import them (%s)', async (filePath) => {
    expect(fired(await lint(filePath, bad), KIT_RULE)).toEqual([]);
  });

  it('passes production code that imports production code', async () => {
    const good = "import { z } from 'zod';\nimport type { Db } from '../db/client';\nimport { LlmGateway } from '@/lib/server/runs/calls/gateway';\nexport const parts = [z, LlmGateway];\nexport type D = Db;\n";
    expect(await lint('lib/server/github/good.ts', good)).toEqual([]);
  });
});

describe('components never import server code', () => {
  it.each([
    ["import { getDb } from '@/lib/server/context';", 'a server module by alias'],
    ["import type { RunHeader } from '@/lib/server/db/queries/run-header';", 'even only its types'],
    ["import { env } from '../lib/server/env';", 'a server module by a relative path'],
    ["import { Prisma } from '@/generated/prisma/client';", 'the generated Prisma client'],
    ["import pg from 'pg';", 'the database driver'],
    ["import { PrismaClient } from '@prisma/client';", 'Prisma'],
  ])('fails a component that imports %s (%s)', async (line) => {
    const messages = fired(await lint('components/bad-component.tsx', `${line}\nexport const x = 1;\n`), LAYER_RULE);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(COMPONENT);
  });

  it('also in a component folder (components/admin)', async () => {
    const messages = fired(await lint('components/admin/bad.tsx', "import { adminOverview } from '@/lib/server/db/queries/admin-overview';\nexport const x = adminOverview;\n"), LAYER_RULE);
    expect(messages).toEqual([expect.stringMatching(COMPONENT)]);
  });

  it('passes a component that takes view models and the kit', async () => {
    const good = "import type { RunHeaderView } from '@/lib/views/run-view';\nimport { Section } from './ui';\nexport function Header({ view }: { view: RunHeaderView }) {\n  return <Section id=\"h\" title={view.title}>{null}</Section>;\n}\n";
    expect(await lint('components/good-component.tsx', good)).toEqual([]);
  });
});

describe('view models import only core and query types', () => {
  it('fails a view that imports a value from a query module', async () => {
    const code = "import { MATCH_START } from '@/lib/server/db/queries/search';\nexport const m = MATCH_START;\n";
    expect(fired(await lint('lib/views/bad-view.ts', code), KIT_RULE)).toEqual([expect.stringMatching(VIEW_QUERY)]);
  });

  it.each([
    "import { env } from '@/lib/server/env';",
    "import { getDb } from '../server/context';",
    "import { scoreOf } from '@/lib/core/scoring';",
    "import { readFileSync } from 'node:fs';",
    "import Link from 'next/link';",
    "import { Section } from '@/components/ui';",
  ])('fails a view that imports anything else: %s', async (line) => {
    const messages = fired(await lint('lib/views/bad-view.ts', `${line}\nexport const x = 1;\n`), KIT_RULE);
    expect(messages).toEqual([expect.stringMatching(VIEW)]);
  });

  it('fails a view that imports a test kit (as a kit, and as a server module)', async () => {
    const messages = fired(await lint('lib/views/bad-view.ts', "import { freshDatabase } from '@/lib/server/db/db.testkit';\nexport const x = freshDatabase;\n"), KIT_RULE);
    expect(messages).toEqual([expect.stringMatching(TEST_KIT), expect.stringMatching(VIEW)]);
  });

  it('passes a view over core, other views and query types', async () => {
    const good = [
      "import { z } from 'zod';",
      "import { orderedDistribution } from '@/lib/core';",
      "import type { RunHeader } from '@/lib/server/db/queries/run-header';",
      "import { type RunModelRow } from '@/lib/server/db/queries/run-ranking';",
      "import { formatScore } from './format';",
      'export const parts = [z, orderedDistribution, formatScore];',
      'export type T = RunHeader | RunModelRow;',
      '',
    ].join('\n');
    expect(await lint('lib/views/good-view.ts', good)).toEqual([]);
  });
});

describe('untrusted text becomes code only in lib/core/untrusted', () => {
  const SYNTAX_RULE = 'no-restricted-syntax';
  const bad = [
    "import { JSONPath } from 'jsonpath-plus';",
    "import { jsonpath } from 'json-p3';",
    'export function f(p: string, name: string) {',
    '  const a = new RegExp(p);',
    "  const b = RegExp(`^${name}$`, 'u');",
    "  const c = new RegExp('^' + name);",
    '  const d = new Function(p);',
    '  const e = Function(p);',
    '  const g = eval(p);',
    '  return [a, b, c, d, e, g, JSONPath, jsonpath];',
    '}',
  ].join('\n');

  it.each(['lib/core/scoring/bad.ts', 'lib/server/providers/bad.ts', 'app/api/bad/route.ts', 'scripts/bad.ts'])('fails computed regexes, JSONPath libraries, eval and Function (%s)', async (filePath) => {
    const messages = fired(await lint(filePath, bad), SYNTAX_RULE);
    expect(messages.map((m) => Number(m.split(':')[0]))).toEqual([1, 2, 4, 5, 6, 7, 8, 9]);
    expect(messages.slice(0, 2).every((m) => /JSONPath through lib\/core\/untrusted/.test(m))).toBe(true);
    expect(messages.slice(2, 5).every((m) => /regexes from runtime strings through lib\/core\/untrusted/.test(m))).toBe(true);
    expect(messages.slice(5).every((m) => /QuickJS sandbox/.test(m))).toBe(true);
  });

  it('keeps the engines in their rooms: RE2 in lib/core/untrusted, QuickJS in the sandbox', async () => {
    const engines = "import { RE2JS } from 're2js';\nimport { newQuickJSWASMModule } from 'quickjs-emscripten';\nimport type { RE2JS as T } from 're2js';\nexport const e = [RE2JS, newQuickJSWASMModule];\nexport type U = T;\n";
    expect(fired(await lint('lib/core/scoring/bad.ts', engines), SYNTAX_RULE).map((m) => Number(m.split(':')[0]))).toEqual([1, 2]);
    expect(fired(await lint('lib/core/points/sandbox/bad.ts', engines), SYNTAX_RULE).map((m) => Number(m.split(':')[0]))).toEqual([1]);
    expect(fired(await lint('lib/core/untrusted/bad.ts', engines), SYNTAX_RULE)).toEqual([]);
  });

  it('lets lib/core/untrusted compile them, and passes regexes written in the source elsewhere', async () => {
    expect(fired(await lint('lib/core/untrusted/bad.ts', bad), SYNTAX_RULE)).toEqual([]);
    const good = "import { literal, pattern } from '@/lib/core';\nexport const a = new RegExp('^a+$', 'u');\nexport const b = new RegExp(`^b$`);\nexport const c = /c/;\nexport const d = (tag: string) => pattern('gi')`<${literal(tag)}>`;\n";
    expect(await lint('lib/core/scoring/good.ts', good)).toEqual([]);
  });
});
