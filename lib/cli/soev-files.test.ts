/**
 * A soev project on disk names its corpus and suite files itself, and a project is as untrusted
 * as a blueprint: what it names is read only inside its folder (after symlinks are resolved),
 * only when it is a regular file, and only up to a size.
 */
import { cp, mkdtemp, readFile, rm, symlink, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { REPO_ROOT } from './cli.testkit';
import { folderFiles, loadProjectFromDisk } from './soev-files';

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

/** A copy of the shipped example in a fresh folder, with a file outside the project beside it. */
async function example(): Promise<{ root: string; project: string }> {
  const root = await mkdtemp(join(tmpdir(), 'assay-soev-'));
  dirs.push(root);
  const project = join(root, 'project');
  await cp(join(REPO_ROOT, 'blueprints/soev-example'), project, { recursive: true });
  await writeFile(join(root, 'secret.jsonl'), '{"id": "secret", "text": "outside the project"}\n');
  return { root, project };
}

const messages = (loaded: Awaited<ReturnType<typeof loadProjectFromDisk>>) => (loaded.ok ? [] : loaded.errors.map((e) => `${e.file}: ${e.message}`));

describe('a soev project reads only inside its folder', () => {
  it('loads the example as it is', async () => {
    const { project } = await example();
    const loaded = await loadProjectFromDisk(join(project, 'project.yml'), false);
    expect(messages(loaded)).toEqual([]);
    expect(loaded.ok && loaded.corpus?.units).toBe(3);
  });

  it('refuses a corpus.path that leaves the folder, before reading it', async () => {
    const { project } = await example();
    const text = await readFile(join(project, 'project.yml'), 'utf8');
    for (const path of ['../secret.jsonl', '/etc/passwd', 'corpus/../../secret.jsonl']) {
      await writeFile(join(project, 'project.yml'), text.replace('path: corpus/units.jsonl', `path: ${path}`));
      const loaded = await loadProjectFromDisk(join(project, 'project.yml'), false);
      expect(loaded.ok).toBe(false);
      expect(messages(loaded).join('\n')).toContain(`corpus.path ${JSON.stringify(path)} leaves the project folder`);
    }
  });

  it('refuses a corpus that is a symlink out of the folder, or to /dev/zero', async () => {
    const { root, project } = await example();
    const corpus = join(project, 'corpus/units.jsonl');
    for (const target of [join(root, 'secret.jsonl'), '/dev/zero']) {
      await unlink(corpus);
      await symlink(target, corpus);
      const loaded = await loadProjectFromDisk(join(project, 'project.yml'), false);
      expect(loaded.ok).toBe(false);
      const text = messages(loaded).join('\n');
      expect(text).toMatch(/corpus\/units\.jsonl: cannot be read: corpus\/units\.jsonl leads outside its folder/);
      expect(text).not.toContain('outside the project');
    }
  });

  it('reads a file up to the limit it is given, and names the file and the limit above it', async () => {
    const { project } = await example();
    const files = folderFiles(project);
    const size = (await readFile(join(project, 'corpus/units.jsonl'))).length;
    expect(await files.read('corpus/units.jsonl', size)).toHaveLength((await readFile(join(project, 'corpus/units.jsonl'), 'utf8')).length);
    await expect(files.read('corpus/units.jsonl', size - 1)).rejects.toThrow(`corpus/units.jsonl is over the limit of ${(size - 1).toLocaleString('en-US')} bytes`);
    expect(await files.read('corpus/none.jsonl', 100)).toBeNull();
  });
});
