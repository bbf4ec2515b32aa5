#!/usr/bin/env -S node --max-semi-space-size=2
// The `assay` command: TypeScript sources run through tsx (a dependency), so `npx assay`
// works right after `npm install` with no build step.
// --max-semi-space-size=2 (MB): V8's young generation, 16 MB a half by default, is sized when the
// process starts, so it can only be given here. A run allocates fast and keeps little, and the
// default's three 16 MB halves plus the old generation they promote into held ~100 MB more at
// the peak of the memory bench's embedded run (575–605 MB against 470–490 MB, for the same CPU:
// docs/limits.md, "Memory"). `env -S` splits the line (Linux coreutils ≥ 8.30, macOS).
import { register } from 'tsx/esm/api';
import { fileURLToPath } from 'node:url';

register({ tsconfig: fileURLToPath(new URL('../tsconfig.json', import.meta.url)) });
const { leanHeap } = await import('../lib/server/lean-heap.ts');
leanHeap();
const { main } = await import('../lib/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
