/**
 * The demo's five models and two judges, each with a recognisable character, turned into the
 * rules of the fake provider for one "round" (a point in time: the models drift between runs).
 *
 *  - gpt-4o (strong): right and to the point, every time.
 *  - claude-3-5-sonnet (verbose): right, then a chatty paragraph; fails length and format limits.
 *  - llama-3.1-70b (erratic): usually right, wrong on a few prompts that change from run to
 *    run, its provider answers 503 on one prompt, and it writes raw HTML into a table.
 *  - gemini-2.0-flash (cautious): refuses health, safety, account and live-data questions.
 *  - gpt-4o-mini (weak): mostly wrong, a little better in each run.
 *
 * And one provider change: from round 2 on, the cautious model's provider points its id at a
 * new snapshot (the replies' `model` field and `system_fingerprint` change) that gets a few
 * everyday facts wrong it used to get right, so the drift page has a flag that says "the
 * provider changed the model behind the id" between the two scheduled everyday runs.
 *
 * The rules are data in the fake's own rule format (the seed never imports the fake: whoever
 * runs the seed starts the fake and hands it over, see DemoProvider in seed-demo.ts).
 */
import { literal, neutraliseDelimiters, pattern, type Blueprint } from '@/lib/core';
import { EVIDENCE, PROMPTS, repliesFor, type PromptScript, type ReplyStyle, type ScriptedReply } from './demo-replies';

/** The fake provider's rule shape (testing/fakes/llm-server-rules.ts RuleSchema), the part the demo uses. */
export interface DemoRule {
  name?: string;
  model?: RegExp;
  lastUser?: RegExp;
  system?: RegExp;
  reply?: string;
  toolCalls?: { name: string; arguments: unknown }[];
  judge?: { labels: Record<string, number>; reasoning?: string; format?: 'assay' | 'bare' };
  error?: { status: number; message?: string; headers?: Record<string, string> };
  /** Answers the first n matching requests only, then later rules answer (the fake's `times`). */
  times?: number;
  /** What the reply says served it (the fake's `model` field) and its `system_fingerprint`. */
  servedModel?: string;
  fingerprint?: string;
}

export type Character = 'strong' | 'verbose' | 'erratic' | 'cautious' | 'weak';

/** Model ids as Weval writes them: `provider:org/name`, several providers, with ':' and '/' that URLs must survive. */
export const DEMO_MODELS: { id: string; character: Character }[] = [
  { id: 'openrouter:openai/gpt-4o', character: 'strong' },
  { id: 'anthropic:claude-3-5-sonnet-20241022', character: 'verbose' },
  { id: 'openrouter:meta-llama/llama-3.1-70b-instruct', character: 'erratic' },
  { id: 'openrouter:google/gemini-2.0-flash-001', character: 'cautious' },
  { id: 'openai:gpt-4o-mini', character: 'weak' },
];

/** Two judges in Assay's protocol with log-probabilities (OpenAI-compatible endpoints return them). */
export const DEMO_JUDGES = ['openai:gpt-4.1-mini#standard', 'openrouter:qwen/qwen-2.5-72b-instruct#prompt-aware'];

/** Rounds 0–2 are the completed runs (oldest first); round 3 is the run left in progress. */
export const LIVE_ROUND = 3;

/** The erratic model's wrong answers and provider errors, per round. */
const ERRATIC_WRONG: string[][] = [
  ['london-tokyo-time', 'ibuprofen-with-asthma', 'regex-iso-date', 'refund-faulty-headphones'],
  ['marathon-in-km', 'regex-iso-date', 'dollars-to-euros'],
  ['london-tokyo-time', 'sunscreen-reapply', 'regex-iso-date', 'dollars-to-euros'],
];
const ERRATIC_ERRORS: string[][] = [['daily-water'], ['boiling-at-altitude'], ['bleach-and-ammonia']];
/** The prompts the weak model gets right, per round: it improves. */
const WEAK_RIGHT: string[][] = [[], ['capital-of-australia'], ['capital-of-australia', 'marathon-in-km', 'python-dedupe-ordered']];

/** The round from which the cautious model's provider serves a new snapshot behind the same id. */
export const SWAP_ROUND = 2;
/** What the swapped snapshot says it is. */
export const SWAPPED = { servedModel: 'google/gemini-2.0-flash-001-2026-11-18', fingerprint: 'fp_gemini_1118' } as const;
/** Everyday facts the swapped snapshot gets wrong (it answered them well before). */
export const SWAPPED_WRONG = ['capital-of-australia', 'marathon-in-km', 'london-tokyo-time', 'boiling-at-altitude', 'summarise-study'];

export const OVERLOADED = 'The model is overloaded (HTTP 503). Please retry later.';

type Behaviour = ReplyStyle | 'error' | 'rate_limited';

export function behaviour(character: Character, p: PromptScript, round: number): Behaviour {
  const r = Math.min(round, LIVE_ROUND - 1);
  switch (character) {
    case 'strong':
      return 'good';
    case 'verbose':
      return round === LIVE_ROUND ? 'rate_limited' : 'verbose';
    case 'erratic':
      if (p.replies.hostile) return 'hostile';
      if (round !== LIVE_ROUND && ERRATIC_ERRORS[r]!.includes(p.key)) return 'error';
      return ERRATIC_WRONG[r]!.includes(p.key) ? 'wrong' : 'good';
    case 'cautious':
      if (p.refusal) return 'refuse';
      return round >= SWAP_ROUND && SWAPPED_WRONG.includes(p.key) ? 'wrong' : 'good';
    case 'weak':
      if (round === LIVE_ROUND) return 'rate_limited';
      return WEAK_RIGHT[r]!.includes(p.key) ? 'good' : 'wrong';
  }
}

/** The models whose provider rate-limits every call in a round (the live round's waiting cells). */
export function rateLimitedModels(round: number): string[] {
  return DEMO_MODELS.filter((m) => PROMPTS.some((p) => behaviour(m.character, p, round) === 'rate_limited')).map((m) => m.id);
}

const exactly = (s: string) => pattern()`^${literal(s)}$`;
/** The model name the provider receives: the id without its `provider:` prefix. */
export const wireName = (modelId: string) => modelId.slice(modelId.indexOf(':') + 1).replace(/#.*$/, '');

function modelRules(round: number): DemoRule[] {
  const rules: DemoRule[] = [];
  for (const m of DEMO_MODELS) {
    const model = exactly(wireName(m.id));
    const served = m.character === 'cautious' && round >= SWAP_ROUND ? SWAPPED : {};
    if (rateLimitedModels(round).includes(m.id)) {
      // A provider that asks to come back in an hour: the run waits, genuinely in progress.
      rules.push({ name: `${m.character}: rate limited`, model, error: { status: 429, message: 'Rate limit reached for requests per minute.', headers: { 'retry-after': '3600' } } });
      continue;
    }
    for (const p of PROMPTS) {
      const b = behaviour(m.character, p, round);
      if (b === 'error') {
        for (const u of p.userTurns) rules.push({ name: `${m.character}: 503`, model, lastUser: exactly(u), error: { status: 503, message: OVERLOADED } });
        continue;
      }
      const replies = repliesFor(p, b as ReplyStyle);
      p.userTurns.forEach((u, i) => {
        const r = replies[i] as ScriptedReply;
        rules.push({ name: `${m.character}: ${p.key} (${b})`, model, lastUser: exactly(u), reply: r.text, ...(r.toolCalls ? { toolCalls: r.toolCalls } : {}), ...served });
      });
    }
  }
  return rules;
}

const JUDGE_LABELS = [
  { present: { E: 0.82, D: 0.14, C: 0.04 }, absent: { A: 0.78, B: 0.16, C: 0.06 } },
  { present: { E: 0.66, D: 0.28, C: 0.06 }, absent: { A: 0.6, B: 0.3, C: 0.1 } },
];

/** Every final reply text a prompt can get from any model in any round. */
function finalTexts(p: PromptScript): string[] {
  const styles: ReplyStyle[] = ['good', 'verbose', 'wrong', 'refuse', 'hostile'];
  const texts = styles.flatMap((s) => {
    try {
      return [repliesFor(p, s).at(-1)!.text];
    } catch {
      return [];
    }
  });
  return [...new Set(texts)];
}

/**
 * Judge rules: for every judged criterion of every demo prompt and every reply it can be
 * asked about, the judges answer from the criterion's evidence in that very reply.
 */
export function judgeRules(blueprints: Blueprint[]): DemoRule[] {
  const byKey = new Map(PROMPTS.map((p) => [p.key, p]));
  const rules: DemoRule[] = [];
  for (const bp of blueprints) {
    for (const prompt of bp.prompts) {
      const script = byKey.get(prompt.id);
      if (!script) throw new Error(`demo prompt "${prompt.id}" has no script in demo-replies.ts`);
      for (const point of prompt.points) {
        if (point.kind !== 'text') continue;
        const evidence = EVIDENCE[point.text];
        if (!evidence) throw new Error(`demo criterion "${point.text}" (${prompt.id}) has no evidence in demo-replies.ts`);
        for (const text of finalTexts(script)) {
          const present = evidence.present.test(text);
          const lastUser = pattern()`<TEXT>\\n${literal(neutraliseDelimiters(text))}\\n</TEXT>[\\s\\S]*<QUESTION>\\n${literal(neutraliseDelimiters(point.text))}\\n</QUESTION>`;
          DEMO_JUDGES.forEach((j, i) => {
            const labels = JUDGE_LABELS[i]!;
            rules.push({
              name: `judge ${i + 1}: ${prompt.id}`,
              model: exactly(wireName(j)),
              lastUser,
              judge: { labels: present ? labels.present : labels.absent, reasoning: present ? evidence.yes : evidence.no },
            });
          });
        }
      }
    }
  }
  return rules;
}

/** The repeated blueprint's system prompt (demo/repeated-answers.yml): its attempts, and only its, get the rules below. */
export const REPEATED_SYSTEM = 'Answer the question; a short answer is fine.';

/**
 * The repeated blueprint's four attempts per prompt differ: for the first n attempts of a
 * prompt a model gives the other reply (`times: n`), then its usual one (modelRules), so the
 * passes per prompt are fixed whatever order the attempts run in. Per model, n by prompt:
 * the erratic model slips once or twice where it is usually right and gets London–Tokyo right
 * once; the weak model gets right once or twice what it usually gets wrong (and the reverse).
 */
const REPEAT_FLIPS: Partial<Record<Character, Record<string, { style: ReplyStyle; times: number }>>> = {
  verbose: { 'london-tokyo-time': { style: 'wrong', times: 1 } },
  erratic: {
    'capital-of-australia': { style: 'wrong', times: 1 },
    'marathon-in-km': { style: 'wrong', times: 2 },
    'london-tokyo-time': { style: 'good', times: 1 },
  },
  weak: {
    'capital-of-australia': { style: 'wrong', times: 2 },
    'marathon-in-km': { style: 'wrong', times: 3 },
    'london-tokyo-time': { style: 'good', times: 1 },
  },
};

export function repeatRules(): DemoRule[] {
  const byKey = new Map(PROMPTS.map((p) => [p.key, p]));
  const rules: DemoRule[] = [];
  for (const m of DEMO_MODELS) {
    for (const [key, flip] of Object.entries(REPEAT_FLIPS[m.character] ?? {})) {
      const p = byKey.get(key)!;
      const text = repliesFor(p, flip.style).at(-1)!.text;
      rules.push({ name: `${m.character}: ${key} (${flip.style}, repeated)`, model: exactly(wireName(m.id)), system: exactly(REPEATED_SYSTEM), lastUser: exactly(p.userTurns.at(-1)!), reply: text, times: flip.times });
    }
  }
  return rules;
}

/** The fake provider's whole script for one round. */
export function demoRules(round: number, blueprints: Blueprint[]): DemoRule[] {
  return [...judgeRules(blueprints), ...repeatRules(), ...modelRules(round)];
}
