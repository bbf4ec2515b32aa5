import { describe, expect, it } from 'vitest';
import type { Expect } from '../../blueprint/schema';
import { criterionKind } from '../registry';
import { DETECTABLE_LANGUAGES } from './language';
import type { Citation, CorpusPort, CriterionEvidence, CriterionServices } from '../types';

function evidence(reply: string, over: { citations?: string[]; expect?: Partial<Expect> | null } = {}): CriterionEvidence {
  const expect: Expect | null =
    over.expect === null || over.expect === undefined
      ? null
      : { behaviour: 'answer', message: null, answer: null, nuggets: [], sources: { required: {}, supporting: [], forbidden: [] }, ...over.expect };
  const citations: Citation[] = (over.citations ?? []).map((id) => ({ id, raw: `[${id}]` }));
  return { messages: [{ role: 'user', content: 'q' }], reply, citations, promptId: 'p', variants: {}, expect };
}

async function grade(kind: string, ev: CriterionEvidence, params: unknown = {}, services: CriterionServices = {}) {
  const def = criterionKind(kind)!;
  expect(def, kind).toBeDefined();
  return def.evaluate(ev, def.params.parse(params), services);
}

const sources = (required: Record<string, string[]>, supporting: string[] = [], forbidden: string[] = []) => ({ sources: { required, supporting, forbidden } });

describe('reply.language', () => {
  it('passes when every sentence is Dutch', async () => {
    const v = await grade('reply.language', evidence('De gemeente moet binnen acht weken beslissen op uw aanvraag. U kunt daarna bezwaar maken bij het college.'), { language: 'nl' });
    expect(v).toMatchObject({ status: 'pass', score: 1 });
    expect(v.detail).toBe('all 2 sentences in nl');
  });

  it('fails with the share in the language: 2 of 3 Dutch sentences → 0.667', async () => {
    const v = await grade(
      'reply.language',
      evidence('De gemeente moet binnen acht weken beslissen op uw aanvraag. The municipality must decide within eight weeks. U kunt daarna bezwaar maken bij het college.'),
      { language: 'NL' },
    );
    expect(v.status).toBe('fail');
    expect(v.score).toBeCloseTo(2 / 3, 6);
    expect(v.detail).toMatch(/^1 of 3 sentences not in nl: "The municipality must decide within eight weeks\." \(en\)/);
  });

  it('skips sentences under 12 letters and code; nothing left is not_applicable', async () => {
    expect((await grade('reply.language', evidence('Ja. OK! `const x = 1`'), { language: 'nl' })).status).toBe('not_applicable');
    const v = await grade('reply.language', evidence('Ja.\n```\nconst answer = computeTheValue();\n```\nDe termijn voor bezwaar is zes weken.'), { language: 'nl' });
    expect(v).toMatchObject({ status: 'pass', detail: 'all 1 sentences in nl' });
  });

  it('knows exactly the languages eld knows', async () => {
    const { eld } = await import('eld/medium');
    expect([...DETECTABLE_LANGUAGES]).toEqual(Object.values(eld.info().Languages).sort());
  });

  it('refuses a language the detector does not know', () => {
    expect(criterionKind('reply.language')!.params.safeParse({ language: 'xx' }).success).toBe(false);
  });
});

describe('reply.max_length', () => {
  it('counts code points: 5 characters with an emoji fit max 5, 6 do not', async () => {
    expect(await grade('reply.max_length', evidence('abcd😀'), { max: 5 })).toMatchObject({ status: 'pass', detail: '5 characters; at most 5 allowed' });
    expect(await grade('reply.max_length', evidence('abcde😀'), { max: 5 })).toMatchObject({ status: 'fail', score: 0 });
  });

  it('with unit: words runs word_count_between([0, max]): 4 words over max 2 → graded 0.5, a fail', async () => {
    const v = await grade('reply.max_length', evidence('one two three four'), { max: 2, unit: 'words' });
    expect(v).toMatchObject({ status: 'fail', score: 0.5, detail: 'word_count_between [0, 2]: 4 words' });
  });
});

describe('reply.contains / reply.regex', () => {
  it('a string is $contains, case-sensitive unless ignore_case', async () => {
    expect((await grade('reply.contains', evidence('Zie de Awb.'), { text: 'awb' })).status).toBe('fail');
    expect((await grade('reply.contains', evidence('Zie de Awb.'), { text: 'awb', ignore_case: true })).status).toBe('pass');
  });

  it('a list is $contains_all_of: 1 of 2 found → score 0.5, a fail', async () => {
    const v = await grade('reply.contains', evidence('Zie de Awb.'), { text: ['Awb', 'Wmo'] });
    expect(v).toMatchObject({ status: 'fail', score: 0.5 });
  });

  it('regex over $matches / $imatches', async () => {
    expect((await grade('reply.regex', evidence('Artikel 4:13 Awb'), { pattern: '^artikel \\d+:\\d+' })).status).toBe('fail');
    expect((await grade('reply.regex', evidence('Artikel 4:13 Awb'), { pattern: '^artikel \\d+:\\d+', ignore_case: true })).status).toBe('pass');
  });

  it('refuses at load a pattern RE2 cannot run (no sandbox for criteria)', () => {
    const r = criterionKind('reply.regex')!.params.safeParse({ pattern: '(?<=a)b' });
    expect(r.success).toBe(false);
    expect(r.error!.issues[0]!.message).toMatch(/RE2 only/);
  });
});

describe('citations.required', () => {
  const expectSources = sources({ wet: ['law/awb/4/13', 'law/awb/4/14'], regeling: ['law/wmo'] });

  it('the share of groups covered, hierarchical: law/awb/4 covers law/awb/4/13 → 1 of 2 = 0.5', async () => {
    const v = await grade('citations.required', evidence('…', { citations: ['law/awb/4', 'law/other'], expect: expectSources }));
    expect(v).toMatchObject({ status: 'fail', score: 0.5, detail: '1 of 2 required groups cited; missing: regeling' });
  });

  it('law/wmo/2/1 (below law/wmo) covers the group; both covered → pass 1', async () => {
    const v = await grade('citations.required', evidence('…', { citations: ['law/awb/4/14', 'law/wmo/2/1'], expect: expectSources }));
    expect(v).toMatchObject({ status: 'pass', score: 1 });
  });

  it('law/awb/4/1 does not cover law/awb/4/13 (segments, not prefixes)', async () => {
    const v = await grade('citations.required', evidence('…', { citations: ['law/awb/4/1'], expect: sources({ wet: ['law/awb/4/13'] }) }));
    expect(v.status).toBe('fail');
  });

  it('exact match: law/awb/4 no longer covers law/awb/4/13', async () => {
    const v = await grade('citations.required', evidence('…', { citations: ['law/awb/4'], expect: sources({ wet: ['law/awb/4/13'] }) }), {}, { citationMatch: 'exact' });
    expect(v).toMatchObject({ status: 'fail', score: 0 });
  });

  it('not_applicable without required groups', async () => {
    expect((await grade('citations.required', evidence('…', { citations: ['law/a'] }))).status).toBe('not_applicable');
    expect((await grade('citations.required', evidence('…', { expect: sources({}) }))).status).toBe('not_applicable');
  });
});

describe('citations.forbidden', () => {
  it('fails naming each forbidden citation', async () => {
    const v = await grade('citations.forbidden', evidence('…', { citations: ['law/old/1', 'law/awb/1', 'law/old/2/3'], expect: sources({}, [], ['law/old']) }));
    expect(v).toMatchObject({ status: 'fail', score: 0, detail: '2 forbidden sources cited: law/old/1, law/old/2/3', data: { hits: ['law/old/1', 'law/old/2/3'] } });
  });
  it('passes without such a citation; n/a without forbidden sources', async () => {
    expect((await grade('citations.forbidden', evidence('…', { citations: ['law/awb/1'], expect: sources({}, [], ['law/old']) }))).status).toBe('pass');
    expect((await grade('citations.forbidden', evidence('…', { citations: ['law/awb/1'], expect: sources({ a: ['x'] }) }))).status).toBe('not_applicable');
  });
});

describe('citations.unseen', () => {
  const roles = sources({ wet: ['law/awb/4'] }, ['law/wmo'], ['law/old']);
  it('lists cited sources the case does not name; supporting and forbidden ones are named', async () => {
    const v = await grade('citations.unseen', evidence('…', { citations: ['law/awb/4/2', 'law/wmo', 'law/old', 'law/x/1', 'law/y'], expect: roles }));
    expect(v).toMatchObject({ status: 'fail', data: { unseen: ['law/x/1', 'law/y'] } });
    expect((await grade('citations.unseen', evidence('…', { citations: ['law/x/1', 'law/y'], expect: roles }), { max: 2 })).status).toBe('pass');
  });
  it('n/a when the case names no sources', async () => {
    expect((await grade('citations.unseen', evidence('…', { citations: ['law/x'] }))).status).toBe('not_applicable');
  });
});

describe('citations.mentions_in_corpus', () => {
  const corpus: CorpusPort = {
    has: (id) => ['law/awb', 'law/awb/4', 'law/awb/4/13', 'law/wmo/2'].includes(id),
    text: () => undefined,
    ids: () => ['law/awb', 'law/awb/4', 'law/awb/4/13', 'law/wmo/2'],
    lawNames: { Awb: 'law/awb', 'Algemene wet bestuursrecht': 'law/awb' },
  };

  it('error without the corpus, never a 0', async () => {
    const v = await grade('citations.mentions_in_corpus', evidence('Zie artikel 4:13 Awb.', { citations: ['law/awb/4'] }));
    expect(v).toMatchObject({ status: 'error', score: null });
    expect(v.detail).toMatch(/needs the corpus/);
  });

  it('cited ids and "artikel N <law>" mentions must be in the corpus: 2 of 3 → 0.667', async () => {
    const v = await grade('citations.mentions_in_corpus', evidence('Volgens artikel 99 van de Awb kan dat.', { citations: ['law/awb/4', 'law/wmo/2'] }), {}, { corpus });
    expect(v.status).toBe('fail');
    expect(v.score).toBeCloseTo(2 / 3, 6);
    expect(v.detail).toContain('law/awb/99 ("artikel 99 Awb")');
  });

  it('a unit above the cited one does not make it exist: law/wmo/2/1 is not in a corpus that has law/wmo/2', async () => {
    const v = await grade('citations.mentions_in_corpus', evidence('…', { citations: ['law/wmo/2/1'] }), {}, { corpus });
    expect(v).toMatchObject({ status: 'fail', score: 0, data: { missing: ['law/wmo/2/1'] } });
  });

  it('a bare law name resolves to its law id; nothing mentioned is n/a', async () => {
    expect(await grade('citations.mentions_in_corpus', evidence('De Algemene wet bestuursrecht regelt dit.'), {}, { corpus })).toMatchObject({ status: 'pass', score: 1 });
    expect((await grade('citations.mentions_in_corpus', evidence('Geen bron.'), {}, { corpus })).status).toBe('not_applicable');
  });
});
