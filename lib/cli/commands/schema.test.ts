import { readdir, readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { blueprintJsonSchema } from '@/lib/core';
import { assay, REPO_ROOT, tempFiles } from '../cli.testkit';
import { blueprintJsonSchemaText } from './schema';

const MODELINE = /^# yaml-language-server: \$schema=(\S+)$/;

describe('assay schema', () => {
  it('the committed schema/blueprint.json is exactly what the code generates (run `npm run schema` after changing the format)', async () => {
    expect(await readFile(join(REPO_ROOT, 'schema/blueprint.json'), 'utf8')).toBe(blueprintJsonSchemaText());
  });

  it('prints the JSON Schema, and writes it with --out', async () => {
    const dir = await tempFiles({});
    const [printed, written] = await Promise.all([assay(['schema']), assay(['schema', '--out', join(dir, 'schema.json')])]);
    expect(printed.code).toBe(0);
    expect(JSON.parse(printed.stdout)).toEqual(blueprintJsonSchema());
    expect(written.code).toBe(0);
    expect(await readFile(join(dir, 'schema.json'), 'utf8')).toBe(printed.stdout);
  });

  it('every example blueprint starts with the yaml-language-server modeline pointing at schema/blueprint.json', async () => {
    // soev project and suite files follow soev's format (docs/soev.md), not schema/blueprint.json
    const files = (await readdir(join(REPO_ROOT, 'blueprints'), { recursive: true })).filter((f) => /\.ya?ml$/.test(f) && !f.startsWith('soev-example/'));
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      const first = (await readFile(join(REPO_ROOT, 'blueprints', file), 'utf8')).split('\n')[0]!;
      const target = MODELINE.exec(first)?.[1];
      expect(target, file).toBeDefined();
      expect(resolve(dirname(join(REPO_ROOT, 'blueprints', file)), target!), file).toBe(join(REPO_ROOT, 'schema/blueprint.json'));
    }
  });
});
