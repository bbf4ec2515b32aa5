import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { exportsTarget, onlyCommonJs } from './bundle-cache.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const IMPORT = ['node', 'import', 'node-addons', 'default'];
const REQUIRE = ['node', 'require', 'node-addons', 'default'];

describe("the command bundle's require() of CommonJS packages", () => {
  it("reads a package's exports as Node does: conditions in the map's order, nested", () => {
    // the shape of @prisma/client's "./runtime/client": under Node both import and require find the CommonJS file
    const prismaLike = { './runtime/client': { types: './c.d.ts', node: { require: './c.js', default: './c.js' }, require: './c.js', import: './c.mjs', default: './c.mjs' } };
    expect(exportsTarget(prismaLike, './runtime/client', IMPORT)).toBe('./c.js');
    expect(exportsTarget(prismaLike, './runtime/client', REQUIRE)).toBe('./c.js');
    // a dual package: import and require find different builds
    const dual = { '.': { import: './index.js', require: './index.cjs' } };
    expect(exportsTarget(dual, '.', IMPORT)).toBe('./index.js');
    expect(exportsTarget(dual, '.', REQUIRE)).toBe('./index.cjs');
    // sugar: a string or a condition map for "." alone
    expect(exportsTarget('./main.js', '.', IMPORT)).toBe('./main.js');
    expect(exportsTarget({ import: './a.mjs', default: './a.js' }, '.', REQUIRE)).toBe('./a.js');
    // what this reading does not cover stays an import
    expect(exportsTarget({ './*': './lib/*.js' }, './x', IMPORT)).toBeNull();
    expect(exportsTarget({ '.': ['./a.js', './b.js'] }, '.', IMPORT)).toBeNull();
    expect(exportsTarget({ '.': './a.js' }, './missing', IMPORT)).toBeNull();
  });

  it('requires only packages that ship CommonJS alone for the name imported (the installed ones)', () => {
    expect(onlyCommonJs('@prisma/client/runtime/client', root)).toBe(true);
    expect(onlyCommonJs('tar-stream', root)).toBe(true); // no exports: main, CommonJS
    expect(onlyCommonJs('pg', root)).toBe(false); // an ES module wrapper of its own for import
    expect(onlyCommonJs('inngest', root)).toBe(false); // "type": "module"
    expect(onlyCommonJs('@prisma/adapter-pg', root)).toBe(false); // import finds dist/index.mjs
    expect(onlyCommonJs('no-such-package-here', root)).toBe(false);
  });
});
