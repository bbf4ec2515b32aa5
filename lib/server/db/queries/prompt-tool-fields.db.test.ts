import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, type TestDatabase } from '../db.testkit';
import { storeBlueprint } from '../../runs/runs.testkit';
import { getPromptToolFields } from './prompt-tool-fields';

let t: TestDatabase;
beforeAll(async () => {
  t = await freshDatabase();
});
afterAll(async () => {
  await t?.close();
});

describe(`a prompt's tool-use fields for its page (${process.env.ASSAY_TEST_DB})`, () => {
  it('reads what the parser stored for that prompt, and nothing for a prompt without them', async () => {
    const text = '- id: with\n  prompt: a\n  requiredTools: [search]\n  prohibitedTools: [rerank, calculator]\n  maxCalls: 0\n- id: without\n  prompt: b\n';
    const { blueprintId } = await storeBlueprint(t.db, 'tools/fields.yml', text);
    const { id: versionId } = await t.db.blueprintVersion.findFirstOrThrow({ where: { blueprintId } });
    expect(await getPromptToolFields(t.db, versionId, 'with')).toEqual({ requiredTools: ['search'], prohibitedTools: ['rerank', 'calculator'], maxCalls: 0 });
    expect(await getPromptToolFields(t.db, versionId, 'without')).toEqual({});
    expect(await getPromptToolFields(t.db, versionId, 'missing')).toEqual({});
  });
});
