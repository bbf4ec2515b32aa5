import { describe, expect, it } from 'vitest';
import { parseBlueprint } from '../blueprint/parse';
import { branchNameFor, codeBlock, codeSpan, collidingPath, draftFingerprint, isStatusFinal, pullRequestDescription, pullRequestPathProblem, pullRequestTitle, tryRunLink } from './pull-request';

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
    expect(text).toContain('### Blueprint `Greetings`\n\n```text\nSays hello\n```');
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

describe('what the author wrote, in the description and the title', () => {
  const HOSTILE = 'Hi @octocat, see [docs](https://evil.example) <img src=x onerror=alert(1)> https://evil.example #12 **bold**';

  it('is shown as code: no link, mention, reference or HTML of the author\'s becomes one', () => {
    const yaml = `title: "Greet @octocat <b>now</b> [x](https://evil.example)"\ndescription: |\n  ${HOSTILE}\n  \`\`\`\n  closing the block early with a fence\n  \`\`\`\`\n  and a longer one\n---\n- prompt: Hi\n  should: [$icontains: hi]\n`;
    const parsed = parseBlueprint(yaml, { file: 'blueprints/g.yml' });
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
    const text = pullRequestDescription(parsed.blueprint, { path: 'blueprints/g.yml', author: 'amy', tryRunUrl: null });
    // the description sits in one fenced block whose fence is longer than any run inside it
    const [before, fenced, after] = text.split(/^`{5}text\n|\n`{5}$/m);
    expect(fenced).toBe(`${HOSTILE}\n\`\`\`\nclosing the block early with a fence\n\`\`\`\`\nand a longer one`);
    expect(before).toBe('### Blueprint `Greet @octocat <b>now</b> [x](https://evil.example)`\n\n');
    // outside the code, nothing of the author's is left
    for (const outside of [before!.replace(/`[^`]*`/g, ''), after!.replace(/`[^`]*`/g, '')]) {
      expect(outside).not.toMatch(/evil\.example|octocat|<b>|<img/);
    }
  });

  it('delimits code by more backticks than the text holds', () => {
    expect(codeSpan('a `b` c')).toBe('``a `b` c``');
    expect(codeSpan('`x`')).toBe('`` `x` ``');
    expect(codeSpan('line one\n\nline two')).toBe('`line one line two`');
    expect(codeBlock('```\nx')).toBe('````text\n```\nx\n````');
  });

  it('keeps the title on one line and mentions nobody', () => {
    expect(pullRequestTitle('Add @octocat\'s\nblueprint\u0007 ')).toBe('Add @\u200boctocat\'s blueprint');
    expect(pullRequestTitle('mail a@b or @ alone')).toBe('mail a@\u200bb or @ alone');
  });

  it('links a try-it run only to a run page of this site', () => {
    expect(tryRunLink('/runs/r1', 'https://assay.test')).toEqual({ ok: true, url: 'https://assay.test/runs/r1' });
    expect(tryRunLink('https://assay.test/runs/r1/progress', 'https://assay.test/')).toEqual({ ok: true, url: 'https://assay.test/runs/r1/progress' });
    expect(tryRunLink('/runs/a(b)', 'https://assay.test')).toEqual({ ok: true, url: 'https://assay.test/runs/a%28b%29' });
    for (const bad of ['https://evil.example/runs/r1', 'javascript:alert(1)', '//evil.example/runs/r1', '/blueprints/x', 'https://user:pw@assay.test/runs/r1', '/runs/r1) [more](https://evil.example']) {
      expect(tryRunLink(bad, 'https://assay.test'), bad).toMatchObject({ ok: false });
    }
  });
});

describe('a path colliding with a file on the base branch', () => {
  it('is the same path, or one differing only in case (one file on macOS and Windows)', () => {
    const existing = ['README.md', 'blueprints/Greetings.yml', 'blueprints/team/a.yml'];
    expect(collidingPath('blueprints/team/a.yml', existing)).toBe('blueprints/team/a.yml');
    expect(collidingPath('blueprints/greetings.yml', existing)).toBe('blueprints/Greetings.yml');
    expect(collidingPath('blueprints/TEAM/A.YML', existing)).toBe('blueprints/team/a.yml');
    expect(collidingPath('blueprints/greetings.yaml', existing)).toBeNull();
    // an exact match wins over one differing in case
    expect(collidingPath('blueprints/x.yml', ['blueprints/X.yml', 'blueprints/x.yml'])).toBe('blueprints/x.yml');
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
