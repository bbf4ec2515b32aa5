import { describe, expect, it } from 'vitest';
import { testPolicy } from '../github.testkit';
import { approvalComment, checkRunResult, inline, refusalComment, resultsComment, validationComment, VALIDATION_MARKER } from './messages';
import type { PullRequestValidation } from './validation';

const broken: PullRequestValidation = {
  files: [
    { path: 'blueprints/ok.yml', kind: 'blueprint', blueprintId: 'ok', blobSha: 'a'.repeat(40), valid: true, promptCount: 3, errors: [], warnings: [{ line: 2, col: 1, message: 'unknown field "foo"' }] },
    { path: 'blueprints/bad.yml', kind: 'blueprint', blueprintId: 'bad', blobSha: 'b'.repeat(40), valid: false, promptCount: 0, errors: [{ line: 7, col: 7, message: 'unknown point function "nope"', hint: 'Use $contains' }], warnings: [] },
  ],
};

describe('check run result', () => {
  it('fails with the errors as file:line:col in the summary, and annotates line and column', () => {
    const r = checkRunResult(broken);
    expect(r.conclusion).toBe('failure');
    expect(r.title).toBe('1 error in 1 file');
    expect(r.summary).toContain('blueprints/bad.yml:7:7: unknown point function "nope"');
    expect(r.summary).toContain('hint: Use $contains');
    expect(r.annotations).toEqual([
      { path: 'blueprints/ok.yml', startLine: 2, endLine: 2, startColumn: 1, endColumn: 1, level: 'warning', title: 'Blueprint warning', message: 'unknown field "foo"' },
      { path: 'blueprints/bad.yml', startLine: 7, endLine: 7, startColumn: 7, endColumn: 7, level: 'failure', title: 'Invalid blueprint', message: 'unknown point function "nope"\nUse $contains' },
    ]);
  });

  it('keeps the summary within what GitHub accepts (65,535 characters), cut at a line, saying so', () => {
    const errors = Array.from({ length: 200 }, (_, i) => ({ line: i + 1, col: 1, message: `problem ${i} `.padEnd(300, 'x'), hint: 'h' }));
    const files = Array.from({ length: 3 }, (_, i) => ({ ...broken.files[1]!, path: `blueprints/bad${i}.yml`, errors }));
    const r = checkRunResult({ files }, 'http://assay.test/pull-requests/7');
    expect(r.summary.length).toBeLessThan(65_535);
    const shown = r.summary.split('\n').filter((l) => l.startsWith('blueprints/bad')).length;
    expect(r.summary).toMatch(/\n```\n\n\*\*[\d,]+ more errors in \d files not shown here\*\* \(GitHub limits the length of this text\): the full list is at http:\/\/assay\.test\/pull-requests\/7\.$/);
    expect(Number(/\*\*([\d,]+) more errors/.exec(r.summary)![1]!.replace(/,/g, '')) + shown).toBe(600);
    expect(r.title).toBe('600 errors in 3 files');
  });

  it('keeps a comment within 65,536 characters whatever the number of files and errors', () => {
    const errors = Array.from({ length: 40 }, (_, i) => ({ line: i + 1, col: 1, message: `problem ${i} `.padEnd(200, 'y') }));
    const files = Array.from({ length: 2000 }, (_, i) => ({ ...broken.files[1]!, path: `blueprints/${'deep/'.repeat(20)}f${i}.yml`, errors }));
    const c = validationComment({ files }, testPolicy, 'abcdef0', 'http://assay.test/pull-requests/9');
    expect(c.length).toBeLessThanOrEqual(65_536);
    expect(c).toMatch(/_[\d,]+ more files not listed here: the full list is at http:\/\/assay\.test\/pull-requests\/9\._/);
    expect(c).toMatch(/\*\*\d+ more errors in 199\d files not shown here\*\*/);
  });

  it('succeeds when every file is valid, and is neutral when no blueprint changed', () => {
    expect(checkRunResult({ files: [broken.files[0]!] })).toMatchObject({ conclusion: 'success', title: '1 file valid' });
    expect(checkRunResult({ files: [] })).toMatchObject({ conclusion: 'neutral', annotations: [] });
  });
});

describe('comments', () => {
  it('carries its marker, the errors in a code block, and no approval instructions while invalid', () => {
    const c = validationComment(broken, testPolicy, 'c0ffee1234567');
    expect(c.startsWith(VALIDATION_MARKER)).toBe(true);
    expect(c).toContain('at c0ffee1');
    expect(c).toContain('```text\nblueprints/bad.yml:7:7: unknown point function "nope"');
    expect(c).not.toContain('/assay run');
  });

  it('tells how to approve, within which budget, once valid', () => {
    const c = validationComment({ files: [broken.files[0]!] }, testPolicy, 'c0ffee1');
    expect(c).toContain('add the label `assay:run` or comment `/assay run`');
    expect(c).toContain('at most 2 models, 5 prompts, 40 calls, $0.50 and 8 s of sandbox time per blueprint, for at most 2 blueprints');
  });

  it('cannot be broken out of: code fences, HTML and mentions from blueprint text are neutralised', () => {
    const evil: PullRequestValidation = { files: [{ ...broken.files[1]!, errors: [{ line: 1, col: 1, message: '```\n<img src=x onerror=alert(1)> @everyone' }] }] };
    const c = validationComment(evil, testPolicy, 'abc');
    const inBlock = c.slice(c.indexOf('```text'));
    expect(inBlock.match(/```/g)).toHaveLength(2);
    expect(inline('<b>@team</b> `x` | y')).toBe('&lt;b&gt;@\u200bteam&lt;/b&gt; \\`x\\` \\| y');
  });

  it('links every started run and names what was skipped', () => {
    const c = approvalComment('maria', [{ blueprintId: 'a__b', runId: 'r1', deduplicated: false }], ['c'], 'http://assay.test');
    expect(c).toContain('approved by @maria');
    expect(c).toContain('[run r1](http://assay.test/runs/r1)');
    expect(c).toContain('Not run (over the per-PR limit): `c`');
    expect(approvalComment('~admin', [], [], 'http://x')).toContain('approved by an Assay admin');
    expect(refusalComment('eve', 'permission', '/assay run')).toContain('only collaborators with write permission');
  });

  it('reports scores best first with intervals, and links the drill-down', () => {
    const c = resultsComment({
      blueprintId: 'greet',
      title: 'Greetings',
      runId: 'run123',
      status: 'completed',
      headSha: 'deadbeefcafe',
      publicUrl: 'http://assay.test',
      rows: [
        { modelId: 'b', score: 0.5, ciLow: 0.4, ciHigh: 0.6, errorCount: 0, costUsd: 0.001 },
        { modelId: 'a', score: 0.875, ciLow: null, ciHigh: null, errorCount: 1, costUsd: 0.02 },
      ],
    });
    expect(c).toContain('### Assay results: Greetings (`greet`) at deadbee');
    expect(c.indexOf('`a`')).toBeLessThan(c.indexOf('`b`'));
    expect(c).toContain('| `a` | 87.5% | — | 1 | $0.0200 |');
    expect(c).toContain('| `b` | 50.0% | 40.0% – 60.0% | 0 | $0.0010 |');
    expect(c).toContain('[Open the drill-down](http://assay.test/runs/run123)');
    expect(resultsComment({ blueprintId: 'g', title: 'G', runId: 'r', status: 'budget_exceeded', headSha: null, rows: [], publicUrl: 'http://x' })).toContain('ended as **budget_exceeded**');
  });
});
