/**
 * The citation kinds (soev's SourceRoles; docs/criteria.md), over the ids the run read from the reply
 * (evidence.citations, through the blueprint's `citations:` mapping or pattern), compared with
 * the case's `expect.sources` by soev's id match (`hierarchical` unless the blueprint's
 * `citations: { match: exact }`): `law/1` ↔ `law/1/2`.
 */
import { z } from 'zod';
import { matchesAny } from '../citations/match';
import { defineKind, errorVerdict, expectOf, fail, judged, notApplicable, pass } from '../define';
import type { CriterionEvidence, CriterionServices } from '../types';
import { literal, pattern } from '../../untrusted';

const citedIds = (evidence: CriterionEvidence) => [...new Set(evidence.citations.map((c) => c.id))];
const modeOf = (services: CriterionServices) => services.citationMatch ?? 'hierarchical';
const noParams = z.strictObject({});

export const citationsRequired = defineKind({
  name: 'citations.required',
  params: noParams,
  summary: 'The share of `expect.sources.required` groups the reply cites (one member covers its group); passes when every group is covered.',
  example: '- kind: citations.required',
  needs: [],
  async evaluate(evidence, _params, services) {
    const groups = Object.entries(expectOf(evidence)?.sources.required ?? {});
    if (groups.length === 0) return notApplicable('the case names no required sources (expect.sources.required)');
    const cited = citedIds(evidence);
    const mode = modeOf(services);
    const covered = groups.filter(([, members]) => members.some((m) => matchesAny(m, cited, mode))).map(([name]) => name);
    const missing = groups.map(([name]) => name).filter((name) => !covered.includes(name));
    const share = covered.length / groups.length;
    const detail = missing.length === 0 ? `all ${groups.length} required groups cited` : `${covered.length} of ${groups.length} required groups cited; missing: ${missing.join(', ')}`;
    return judged(missing.length === 0, share, detail, { covered, missing, cited });
  },
});

export const citationsForbidden = defineKind({
  name: 'citations.forbidden',
  params: noParams,
  summary: 'Fails on each citation of a source in `expect.sources.forbidden`.',
  example: '- kind: citations.forbidden\n  gate: true',
  needs: [],
  async evaluate(evidence, _params, services) {
    const forbidden = expectOf(evidence)?.sources.forbidden ?? [];
    if (forbidden.length === 0) return notApplicable('the case forbids no sources (expect.sources.forbidden)');
    const mode = modeOf(services);
    const hits = citedIds(evidence).filter((id) => matchesAny(id, forbidden, mode));
    if (hits.length === 0) return pass(`none of the ${forbidden.length} forbidden sources cited`, 1, { hits });
    return fail(`${hits.length} forbidden source${hits.length === 1 ? '' : 's'} cited: ${hits.join(', ')}`, 0, { hits });
  },
});

export const citationsUnseen = defineKind({
  name: 'citations.unseen',
  params: z.strictObject({ max: z.number().int().min(0).default(0) }),
  summary: 'Lists the cited sources that the case does not name (required, supporting or forbidden); fails when there are more than `max` (default 0).',
  example: '- kind: citations.unseen\n  max: 1',
  needs: [],
  async evaluate(evidence, params, services) {
    const expect = expectOf(evidence);
    const sources = expect?.sources;
    const known = sources ? [...Object.values(sources.required).flat(), ...sources.supporting, ...sources.forbidden] : [];
    if (known.length === 0) return notApplicable('the case names no sources (expect.sources), so no citation can be unseen');
    const mode = modeOf(services);
    const unseen = citedIds(evidence).filter((id) => !matchesAny(id, known, mode));
    const detail = unseen.length === 0 ? 'every cited source is named by the case' : `${unseen.length} cited source${unseen.length === 1 ? '' : 's'} the case does not name: ${unseen.join(', ')} (at most ${params.max} allowed)`;
    return judged(unseen.length <= params.max, unseen.length <= params.max ? 1 : 0, detail, { unseen });
  },
});

/** `artikel 3:2 Awb`, `article 12 of the GDPR`: an article number before a law's name, within a few words. */
function articleMentions(text: string, name: string): string[] {
  const re = pattern('giu')`\\b(?:art(?:ikel|icle|\\.)?)\\s*(\\d+[a-z]?(?::\\d+[a-z]?)?)\\b[^.\\n]{0,40}?\\b${literal(name)}\\b`;
  return [...text.matchAll(re)].map((m) => m[1]!);
}

export const citationsMentionsInCorpus = defineKind({
  name: 'citations.mentions_in_corpus',
  params: noParams,
  summary: 'Every source the reply cites or mentions by name (a law of `corpus.law_names`, `artikel N <law>`) exists in the corpus (the id, or a unit below it).',
  example: '- kind: citations.mentions_in_corpus',
  needs: ['corpus'],
  async evaluate(evidence, _params, services) {
    const corpus = services.corpus;
    if (!corpus) return errorVerdict('needs the corpus: add `corpus: { path: units.jsonl }` to the blueprint header (a JSONL file of {id, text})');
    // In the corpus: the id itself, or (hierarchical) a unit below it: `law/awb/4` exists when
    // `law/awb/4/13` does. Not a unit above it: that would let `law/awb/99` pass for `law/awb`.
    const mode = modeOf(services);
    const ids = [...corpus.ids()];
    const inCorpus = (id: string) => corpus.has(id) || (mode === 'hierarchical' && ids.some((c) => c.startsWith(`${id}/`)));
    const mentions = new Map<string, string>();
    for (const id of citedIds(evidence)) mentions.set(id, `cited ${id}`);
    // lawNames: a name as written → the canonical law id (from law_names: id → names)
    for (const [name, law] of Object.entries(corpus.lawNames ?? {})) {
      const articles = articleMentions(evidence.reply, name);
      // `artikel 6:7 Awb` is the unit law/awb/6/7 (chapter:article, as ids write it with slashes)
      for (const article of articles) mentions.set(`${law}/${article.replace(':', '/')}`, `"artikel ${article} ${name}"`);
      if (articles.length === 0 && pattern('iu')`\\b${literal(name)}\\b`.test(evidence.reply)) mentions.set(law, `"${name}"`);
    }
    if (mentions.size === 0) return notApplicable('the reply cites and names no source');
    const missing = [...mentions.entries()].filter(([id]) => !inCorpus(id));
    const share = (mentions.size - missing.length) / mentions.size;
    const detail =
      missing.length === 0
        ? `all ${mentions.size} cited or named sources are in the corpus`
        : `${missing.length} of ${mentions.size} cited or named sources are not in the corpus: ${missing.map(([id, how]) => `${id} (${how})`).join(', ')}`;
    return judged(missing.length === 0, share, detail, { mentioned: [...mentions.keys()], missing: missing.map(([id]) => id) });
  },
});
