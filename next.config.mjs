import { PHASE_DEVELOPMENT_SERVER } from 'next/constants.js';

/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  typedRoutes: false,
  // `next dev` serves localhost; opening it as http://127.0.0.1:PORT (as the README and the
  // fake's URLs do) is a different origin, which Next warns about ("Cross origin request
  // detected") and will block in a future version.
  allowedDevOrigins: ['127.0.0.1', 'localhost', '[::1]'],
  // Server-side packages Node loads from node_modules instead of the bundler compiling them: those
  // with wasm or native-ish internals, and the big ones (eld's language n-grams are 6.3 MB of
  // JavaScript; the provider SDKs, zod, yaml). Compiling them for the server cost `next dev`
  // ~300 MB of Turbopack memory and time on every first compile, for code that is never edited
  // here (docs/limits.md, "Memory").
  serverExternalPackages: [
    'pg',
    '@prisma/adapter-pg',
    '@electric-sql/pglite',
    'quickjs-emscripten',
    'inngest',
    'eld',
    'openai',
    '@anthropic-ai/sdk',
    '@google/genai',
    'google-auth-library',
    'zod',
    'yaml',
    're2js',
    'jstat',
    'ws',
    '@octokit/rest',
    '@octokit/auth-app',
    // the CLI's and tests' worker bundler (lib/server/bundled-worker.ts): a native binary's driver
    'esbuild',
  ],
  async headers() {
    return [
      {
        source: '/:path*',
        headers: [
          // the Content-Security-Policy, with a per-request nonce, is set by proxy.ts (lib/server/http/csp.ts)
          { key: 'X-Content-Type-Options', value: 'nosniff' },
          { key: 'Referrer-Policy', value: 'same-origin' },
        ],
      },
    ];
  },
};

/**
 * `next dev` on a newcomer's machine shares it with the embedded database and the runner
 * (docs/limits.md, "Memory"): Turbopack drops its in-memory copy of whatever it has written to
 * its persistent cache (.next/dev, reloaded on demand), and runs its PostCSS (Tailwind) loader
 * in a worker thread of the dev server instead of a Node process of its own.
 */
const devMemory = {
  experimental: {
    turbopackMemoryEviction: 'full',
    turbopackPluginRuntimeStrategy: 'workerThreads',
  },
};

/** @param {string} phase */
export default function config(phase) {
  return phase === PHASE_DEVELOPMENT_SERVER ? { ...nextConfig, ...devMemory } : nextConfig;
}
