#!/usr/bin/env node
// The `assay` command: TypeScript sources run through tsx (a dependency), so `npx assay`
// works right after `npm install` with no build step.
import { register } from 'tsx/esm/api';
import { fileURLToPath } from 'node:url';

register({ tsconfig: fileURLToPath(new URL('../tsconfig.json', import.meta.url)) });
const { leanHeap } = await import('../lib/server/lean-heap.ts');
leanHeap();
const { main } = await import('../lib/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
