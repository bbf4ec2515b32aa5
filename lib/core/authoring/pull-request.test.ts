import { describe, expect, it } from 'vitest';
import { parseBlueprint } from '../blueprint/parse';
import { branchNameFor, draftFingerprint, isStatusFinal, pullRequestDescription, pullRequestPathProblem } from './pull-request';

describe('the path a draft may take', () => {
  it.each([
    ['blueprints/a.yml', null],
    ['blueprints/topic/sub_dir/my-blueprint.v2.yaml', null],
    ['a.yml', 'inside blueprints/'],
    ['blueprintsx/a.yml', 'inside blueprints/'],
    ['/blueprints/a.yml', 'inside blueprints/'],
    ['blueprints/a.json', '.yml or .yaml'],
    ['blueprints/../secrets.yml', '".."'],
    ['blueprints/./a.yml', '".."'],
    ['blueprints//a.yml', '".."'],
    ['blueprints/a\\b.yml', 'not \\'],
    ['blueprints/a b.yml', 'letters, digits'],
    ['blueprints/ü.yml', 'letters, digits'],
  ])('%s', (path, problem) => {
    const got = pullRequestPathProblem(path);
    if (problem === null) expect(got).toBeNull();
    else expect(got).toContain(problem);
  });
});

describe('branch names', () => {
  it('derive from the file name and the content, with a suffix when taken', () => {
    const fp = draftFingerprint('title: x\n');
    expect(fp).toMatch(/^[0-9a-f]{8}$/);
    expect(branchNameFor('blueprints/a/My Draft.yml', 'title: x\n')).toBe(`assay/My-Draft-${fp}`);
    expect(branchNameFor('blueprints/a/My Draft.yml', 'title: x\n', 3)).toBe(`assay/My-Draft-${fp}-3`);
    expect(branchNameFor('blueprints/a.yml', 'title: y\n')).not.toBe(branchNameFor('blueprints/a.yml', 'title: x\n'));
  });
});

describe('the generated description', () => {
  it('says what the blueprint tests, its size, and links the try-it run', () => {
    const parsed = parseBlueprint('title: Greetings\ndescription: Says hello\nmodels: [openai:gpt-4o-mini]\n---\n- prompt: Hi\n  should: [$icontains: hi, Is friendly]\n', { file: 'blueprints/g.yml' });
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
    const text = pullRequestDescription(parsed.blueprint, { path: 'blueprints/g.yml', author: 'amy', tryRunUrl: 'https://assay.test/runs/r1' });
    expect(text).toContain('### Greetings\n\nSays hello');
    expect(text).toContain('- 1 prompt, 2 points');
    expect(text).toContain('`openai:gpt-4o-mini`');
    expect(text).toContain("[the draft's run](https://assay.test/runs/r1)");
    expect(pullRequestDescription(parsed.blueprint, { path: 'blueprints/g.yml', author: 'amy', tryRunUrl: null })).toContain('Try-it results: not run');
  });

  it('stays within the 65,536 characters GitHub accepts, however long the description', () => {
    const parsed = parseBlueprint(`title: Long\ndescription: ${'d'.repeat(200_000)}\n---\n- prompt: Hi\n  should: [$icontains: hi]\n`, { file: 'blueprints/g.yml' });
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
    const text = pullRequestDescription(parsed.blueprint, { path: 'blueprints/g.yml', author: 'amy', tryRunUrl: null });
    expect(text.length).toBeLessThanOrEqual(65_536);
    expect(text).toContain('_… the description goes on in the file (200,000 characters)._');
  });
});

describe('when the status is final', () => {
  const done = { name: 'Assay: blueprints', status: 'completed', conclusion: 'success', summary: null, detailsUrl: null };
  it('needs every check completed and Assay settled, or the PR closed', () => {
    expect(isStatusFinal({ state: 'open', assayState: null, checks: [] })).toBe(false);
    expect(isStatusFinal({ state: 'open', assayState: 'validating', checks: [done] })).toBe(false);
    expect(isStatusFinal({ state: 'open', assayState: 'awaiting_approval', checks: [done, { ...done, name: 'ci', status: 'in_progress', conclusion: null }] })).toBe(false);
    expect(isStatusFinal({ state: 'open', assayState: 'awaiting_approval', checks: [done] })).toBe(true);
    expect(isStatusFinal({ state: 'closed', assayState: null, checks: [] })).toBe(true);
    // token-only mode: no check run at all, Assay's record alone settles it
    expect(isStatusFinal({ state: 'open', assayState: 'invalid', checks: [] })).toBe(true);
    expect(isStatusFinal({ state: 'open', assayState: 'validating', checks: [] })).toBe(false);
  });
});
