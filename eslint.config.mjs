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
    ['@/lib/server/db', '@/lib/server/db/**', '@/lib/server/context', '@/generated/**', 'pg', '@prisma/*'],
    'Components are presentational: they receive view models and never fetch.',
  ),
  layer(['app/**', 'scripts/**', 'bench/**', 'e2e/**'], [], ''),
);
