/**
 * "How to read this": one sentence per number a page shows, each linked to its section of the
 * methodology page. Kept in one module so that every page says the same thing about the same
 * number, and so the sentences and the methodology's anchors cannot drift apart (a test holds
 * every anchor to a section of methodology-text.ts).
 */
import { METHODOLOGY_PATH, type MethodologySectionId } from './methodology-text';

export type ReadingTopic = 'score' | 'interval' | 'band' | 'alpha' | 'drift' | 'passk' | 'paired' | 'coverage' | 'cost';

export interface ReadingItem {
  topic: ReadingTopic;
  term: string;
  sentence: string;
  href: string;
}

const SENTENCES: Record<ReadingTopic, { term: string; sentence: string; section: MethodologySectionId }> = {
  score: {
    term: 'Score',
    sentence: 'A score (0–100) is how much of what the blueprint asks a reply met, averaged over a prompt’s attempts and then over the prompts; errors are left out, never counted as 0.',
    section: 'score',
  },
  interval: {
    term: 'Interval',
    sentence: 'The 95% interval is the range the score would likely fall in with a different sample of prompts like these; n says how many prompts (and clusters) it rests on, and a narrow-looking interval over few prompts is still rough.',
    section: 'intervals',
  },
  band: {
    term: 'Band',
    sentence: 'Models in the same band are statistically tied: their paired difference on the shared prompts is not significant after the Holm correction, so read their order within the band as a coin toss.',
    section: 'bands',
  },
  alpha: {
    term: 'Judge α',
    sentence: 'α (Krippendorff’s alpha) says how far the judges agree on the judged points behind a score, counted over a whole run, blueprint or board and never over one verdict: 1 is full agreement, 0 no better than chance; from 0.80 a judged score is reliable, below 0.67 read it with caution, with too few verdicts it is not shown, and a self-judging warning means a judge shares the graded model’s maker.',
    section: 'alpha',
  },
  drift: {
    term: 'Drift',
    sentence: 'A drift flag means a model’s score moved between two scheduled runs of the same blueprint by more than chance allows (the paired interval excludes 0), and the interval reaches the smallest change the blueprint can detect.',
    section: 'drift',
  },
  passk: {
    term: 'pass@k / pass^k',
    sentence: 'pass@k is the chance that at least one of k attempts passes, pass^k the chance that all k do, both estimated without bias from every attempt made.',
    section: 'passk',
  },
  paired: {
    term: 'Paired difference',
    sentence: 'A paired difference compares two models prompt by prompt on the prompts both answered, with its own interval and p-value: more sensitive than comparing two scores side by side.',
    section: 'paired',
  },
  coverage: {
    term: 'Coverage',
    sentence: 'Coverage says how many of the verdicts a score needs got one; a score resting on under half of its judged (or of its function-graded) verdicts is withheld rather than shown.',
    section: 'coverage',
  },
  cost: {
    term: 'Cost and latency',
    sentence: 'Cost is the mean cost per prompt, and latency the median reply latency, of the runs a model is ranked on (averaged over its blueprints), as the providers reported them.',
    section: 'cost',
  },
};

export function methodologyHref(section: MethodologySectionId): string {
  return `${METHODOLOGY_PATH}#${section}`;
}

/** The items a page shows, in the order asked. */
export function howToRead(topics: readonly ReadingTopic[]): ReadingItem[] {
  return topics.map((topic) => {
    const s = SENTENCES[topic];
    return { topic, term: s.term, sentence: s.sentence, href: methodologyHref(s.section) };
  });
}

/** What each page explains (the numbers it shows). */
export const PAGE_READINGS = {
  home: ['score', 'interval', 'band', 'alpha', 'drift', 'cost'],
  blueprint: ['score', 'interval', 'band', 'alpha', 'passk', 'drift'],
  run: ['score', 'interval', 'band', 'alpha', 'passk', 'coverage'],
  runModel: ['score', 'interval', 'alpha', 'coverage'],
  // a cell has no α (too few verdicts): its verdicts show the judges' answers and spread
  cell: ['score', 'passk'],
  model: ['score', 'interval', 'band', 'alpha', 'paired', 'drift'],
  diff: ['score', 'paired', 'interval', 'drift'],
} as const satisfies Record<string, readonly ReadingTopic[]>;

export type ReadingPage = keyof typeof PAGE_READINGS;

export function pageReadings(page: ReadingPage): ReadingItem[] {
  return howToRead(PAGE_READINGS[page]);
}
