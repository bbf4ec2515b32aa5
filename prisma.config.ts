// Prisma CLI configuration: the wasm schema engine over our pg adapter (see
// lib/server/db/migrate-adapter.ts and ../shared/notes/stack.md): no engine download.
import { defineConfig } from 'prisma/config';
import { createMigrateAdapter } from './lib/server/db/migrate-adapter';

// The CLI falls back to downloading a native engine when DATABASE_URL is unset.
process.env.DATABASE_URL ??= 'postgresql://postgres@127.0.0.1:5432/postgres';
const url = process.env.DATABASE_URL;

export default defineConfig({
  experimental: { adapter: true },
  engine: 'js',
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  adapter: () => createMigrateAdapter(url),
});
