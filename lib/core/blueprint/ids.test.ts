import { describe, expect, it } from 'vitest';
import { blueprintIdFromPath, promptHashId, sha256Hex, stableStringify } from './ids';
import { load } from './blueprint.testkit';

describe('blueprintIdFromPath (Weval generateBlueprintIdFromPath)', () => {
  it.each([
    ['my-test.yml', 'my-test'],
    ['another-test.yaml', 'another-test'],
    ['json-test.json', 'json-test'],
    ['subdir/my-test.yml', 'subdir__my-test'],
    ['a/b/c/my-test.yml', 'a__b__c__my-test'],
    ['special.weval.yml', 'special'],
    ['subdir/special.civic.yaml', 'subdir__special'],
    ['v1.2.3/my.special-test.yml', 'v1.2.3__my.special-test'],
    ['', ''],
    ['no-extension', 'no-extension'],
    ['a/b.yml', 'a__b'],
  ])('%s → %s', (path, id) => expect(blueprintIdFromPath(path)).toBe(id));
});

describe('sha256Hex', () => {
  // Web Crypto (a global, no import) is the reference implementation.
  const reference = async (text: string) =>
    [...new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)))].map((b) => b.toString(16).padStart(2, '0')).join('');

  it('matches the FIPS 180-2 example', () => {
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it.each(['', 'é ü 漢字 🎉', 'x'.repeat(55), 'x'.repeat(56), 'y'.repeat(64), 'z'.repeat(1000)])('matches Web Crypto on %j', async (text) => {
    expect(sha256Hex(text)).toBe(await reference(text));
  });
});

describe('stableStringify (json-stable-stringify)', () => {
  it('sorts keys, drops undefined keys, writes undefined array items as null', () => {
    expect(stableStringify({ b: 1, a: [undefined, { d: undefined, c: 'x' }] })).toBe('{"a":[null,{"c":"x"}],"b":1}');
    expect(stableStringify(undefined)).toBeUndefined();
  });

  it('honours toJSON and writes what JSON.stringify writes for the rest', () => {
    expect(stableStringify({ z: new Date(0), y: { toJSON: () => ({ q: 1, p: 2 }) } })).toBe('{"y":{"p":2,"q":1},"z":"1970-01-01T00:00:00.000Z"}');
    expect(stableStringify({ n: Number.NaN, m: -0, s: 'é"\\\n', f: () => 1 })).toBe('{"m":0,"n":null,"s":"é\\"\\\\\\n"}');
  });

  it('refuses a cycle', () => {
    const a: Record<string, unknown> = {};
    a.self = a;
    expect(() => stableStringify(a)).toThrow(TypeError);
  });
});

describe('prompt hash ids', () => {
  it("reproduce Weval's ids", () => {
    // Values recorded from Weval (parser-cases.json).
    expect(promptHashId({ messages: [{ role: 'user', content: 'Prompt 1' }], render_as: 'markdown' })).toBe('hash-aea27494baef');
    const bp = load('- prompt: "What is the capital of France?"\n  should:\n    - "mentions Paris"\n    - "provides accurate information"\n');
    expect(bp.prompts[0]!.id).toBe('hash-0a2c89ceb8df');
  });

  it('change with what is asked or graded, not with labels', () => {
    const id = (extra: string) => load(`- prompt: q\n${extra}`).prompts[0]!.id;
    const base = id('');
    expect(id('  tags: [x]\n  category: c\n  status: draft\n  repeats: 3\n')).toBe(base);
    expect(id('  should: [a]\n')).not.toBe(base);
    expect(id('  should:\n    - noul: "Is polite"\n')).not.toBe(id('  should:\n    - "Is polite"\n'));
    expect(id('  should:\n    - point: a\n      gate: true\n')).not.toBe(id('  should: [a]\n'));
  });
});
