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

// Untrusted text never becomes code outside lib/core/untrusted: a regex from a runtime string goes
// through RE2 there (V8's backtracking engine took seconds on a blueprint's `(a+)+$`), a JSONPath
// through its RFC 9535 evaluator (jsonpath-plus ran filter scripts), JavaScript only in the QuickJS
// sandbox. A regex written in the source (a literal, a template without `${}`) is fine.
export const UNTRUSTED_REGEX_MESSAGE =
  'Build regexes from runtime strings through lib/core/untrusted: compilePattern/compileLinear for patterns from files or users (RE2), pattern`…${literal(text)}` for a developer pattern around a string.';
export const UNTRUSTED_JSONPATH_MESSAGE = 'Query JSONPath through lib/core/untrusted (selectJsonPath/compileJsonPath: RFC 9535, no scripts), not a JSONPath library.';
export const UNTRUSTED_CODE_MESSAGE = 'JavaScript from outside runs only in the QuickJS sandbox (lib/core/points/sandbox), never through eval or Function.';
const computedRegExp = (node) =>
  `${node}[callee.name='RegExp']:not([arguments.0.type='Literal']):not([arguments.0.type='TemplateLiteral'][arguments.0.expressions.length=0])`;
const untrustedSyntax = [
  { selector: computedRegExp('NewExpression'), message: UNTRUSTED_REGEX_MESSAGE },
  { selector: computedRegExp('CallExpression'), message: UNTRUSTED_REGEX_MESSAGE },
  { selector: "ImportDeclaration[source.value=/^(jsonpath|jsonpath-plus|json-p3|jsonpath-rfc9535|@jsonjoy\\.com\\/json-path|jsonpath-ts)(\\/|$)/]", message: UNTRUSTED_JSONPATH_MESSAGE },
  { selector: "ImportExpression[source.value=/^(jsonpath|jsonpath-plus|json-p3|jsonpath-rfc9535|@jsonjoy\\.com\\/json-path|jsonpath-ts)(\\/|$)/]", message: UNTRUSTED_JSONPATH_MESSAGE },
  { selector: "NewExpression[callee.name='Function']", message: UNTRUSTED_CODE_MESSAGE },
  { selector: "CallExpression[callee.name='Function']", message: UNTRUSTED_CODE_MESSAGE },
  { selector: "CallExpression[callee.name='eval']", message: UNTRUSTED_CODE_MESSAGE },
  { selector: "CallExpression[callee.property.name='eval'][callee.object.name='globalThis']", message: UNTRUSTED_CODE_MESSAGE },
  { selector: "ImportDeclaration[importKind!='type'][source.value='re2js']", message: UNTRUSTED_REGEX_MESSAGE },
];
const quickJsImport = { selector: "ImportDeclaration[importKind!='type'][source.value=/^quickjs-emscripten/]", message: UNTRUSTED_CODE_MESSAGE };

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
  {
    // Test code (tests, kits, fakes, e2e, benches) builds regexes from its own fixtures.
    files: ['lib/**', 'app/**', 'components/**', 'scripts/**'],
    ignores: [...TESTS, 'lib/core/untrusted/**', 'lib/core/points/sandbox/**'],
    rules: { 'no-restricted-syntax': ['error', ...untrustedSyntax, quickJsImport] },
  },
  {
    // The QuickJS sandbox: the one place JavaScript from a blueprint runs.
    files: ['lib/core/points/sandbox/**'],
    ignores: TESTS,
    rules: { 'no-restricted-syntax': ['error', ...untrustedSyntax] },
  },
);
