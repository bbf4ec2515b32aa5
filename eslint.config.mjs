// Lint, with the architecture's import directions as errors (STYLE.md: "set them from the start").
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

const coreThroughIndex = {
  group: ['@/lib/core/*', '@/lib/core/**', '**/lib/core/*/**'],
  message: 'Import lib/core through its index: "@/lib/core".',
};

// One rule entry per folder: ESLint's flat config replaces (not merges) a rule's options.
const layer = (files, groups, message, extra = [coreThroughIndex]) => ({
  files,
  rules: {
    'no-restricted-imports': ['error', { patterns: [...(groups.length ? [{ group: groups, message }] : []), ...extra] }],
  },
});

// Test kits, fakes and test runners belong to tests: `*.test.ts(x)` and `*.testkit.ts` may import
// them, nothing else under lib/, components/ or app/ may. (typescript-eslint's rule, so that the
// folder layers above keep the base rule to themselves.)
export const TEST_KIT_MESSAGE = 'Test kits, fakes and test runners are for tests: only *.test.ts and *.testkit.ts files may import them.';
const testKitPatterns = [
  { regex: '^(vitest|@vitest/.*|@inngest/test)$', message: TEST_KIT_MESSAGE },
  { regex: '^(@/|(\\.\\./)+)testing(/|$)', message: TEST_KIT_MESSAGE },
  { regex: '\\.testkit(\\.[cm]?[jt]sx?)?$', message: TEST_KIT_MESSAGE },
];
const TESTS = ['**/*.test.ts', '**/*.test.tsx', '**/*.testkit.ts', '**/*.testkit.tsx'];

// lib/views: pure view models, fed by the queries' results (STYLE: pages query, views shape,
// components render). They import lib/core, other views and, type-only, the query result types.
export const VIEW_QUERY_MESSAGE = 'lib/views may import only the types of lib/server/db/queries (import type): pass values in, or move them to lib/core.';
export const VIEW_MESSAGE = 'lib/views is pure: it imports only "@/lib/core", other views and query types; pass what it needs in as arguments.';
const viewPatterns = [
  { regex: '^@/lib/server/db/queries/[^/]+$', allowTypeImports: true, message: VIEW_QUERY_MESSAGE },
  { regex: '^@/(?!lib/core$|lib/server/db/queries/[^/]+$|lib/views/)', message: VIEW_MESSAGE },
  { regex: '^(\\.\\./)+(server|core|cli|app|components|generated|testing)(/|$)|^(\\.\\./){2,}', message: VIEW_MESSAGE },
  {
    group: ['node:*', 'fs', 'fs/*', 'path', 'child_process', 'http', 'https', 'net', 'os', 'process', 'crypto', 'pg', '@prisma/*', 'next', 'next/*', 'react', 'react-dom', 'inngest', 'inngest/*', '@octokit/*'],
    message: VIEW_MESSAGE,
  },
];

export const COMPONENT_MESSAGE = 'Components are presentational: they receive view models (lib/views) and never import server code.';

export default tseslint.config(
  { ignores: ['node_modules/', '.next/', 'generated/', 'next-env.d.ts', 'test-results/', 'playwright-report/', '.data/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  { files: ['**/*.mjs', '**/*.cjs'], languageOptions: { globals: globals.node } },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
    },
  },
  layer(
    ['lib/core/**'],
    [
      '@/lib/server', '@/lib/server/**', '@/lib/cli', '@/lib/cli/**', '@/app', '@/app/**', '@/components', '@/components/**',
      '@/generated/**', '**/lib/server/**', '**/server/**', '**/cli/**', '**/app/**', '**/components/**',
      'node:*', 'fs', 'fs/*', 'path', 'child_process', 'http', 'https', 'net', 'os', 'process', 'crypto',
      'pg', '@prisma/*', 'next', 'next/*', 'inngest', 'inngest/*', '@octokit/*', 'react', 'react-dom',
    ],
    'lib/core is pure: no I/O, env, clock or framework. Pass what it needs in as arguments or ports.',
    [],
  ),
  layer(
    ['lib/server/**'],
    ['@/app', '@/app/**', '@/components', '@/components/**', '@/lib/cli', '@/lib/cli/**', 'next', 'next/*', 'react', 'react-dom'],
    'lib/server holds adapters and use cases: it must not depend on pages, components, the CLI or Next.',
  ),
  layer(
    ['lib/cli/**'],
    ['@/app', '@/app/**', '@/components', '@/components/**', 'next', 'next/*'],
    'The CLI uses core and server adapters, never Next.',
  ),
  layer(
    ['components/**'],
    ['@/lib/server', '@/lib/server/**', '**/lib/server', '**/lib/server/**', '@/generated', '@/generated/**', '**/generated/prisma/**', 'pg', 'pg/*', '@prisma/*'],
    COMPONENT_MESSAGE,
  ),
  layer(['app/**', 'scripts/**', 'bench/**', 'e2e/**', 'testing/**'], [], ''),
  {
    files: ['lib/**', 'components/**', 'app/**'],
    ignores: TESTS,
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns: testKitPatterns }] },
  },
  {
    files: ['lib/views/**'],
    ignores: TESTS,
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns: [...testKitPatterns, ...viewPatterns] }] },
  },
);
