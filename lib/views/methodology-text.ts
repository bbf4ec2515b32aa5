/**
 * The methodology page's text, written for readers rather than statisticians: how each number
 * on Assay's pages is made and how far it can be trusted. One place, so the page, the "How to
 * read this" sentences (how-to-read.ts) and their anchors agree. Plain strings: the page
 * renders paragraphs and lists, no markup inside.
 */
import { ALPHA_MIN_UNITS } from '@/lib/core';

export const METHODOLOGY_PATH = '/methodology';

export type MethodologySectionId = 'score' | 'intervals' | 'paired' | 'bands' | 'passk' | 'drift' | 'planner' | 'alpha' | 'coverage' | 'cost';

export interface MethodologySection {
  id: MethodologySectionId;
  title: string;
  /** Paragraphs; a paragraph given as an array is a bulleted list. */
  body: (string | string[])[];
  /** Where the method comes from. */
  sources?: string[];
}

export const METHODOLOGY_INTRO =
  'Every number on Assay comes from stored verdicts you can open: a score is never more than the replies and the grading behind it. This page says how each number is made from those verdicts and how far to trust it. Each page’s “How to read this” box links to the section it needs.';

export const METHODOLOGY: MethodologySection[] = [
  {
    id: 'score',
    title: 'How a score is made',
    body: [
      'A blueprint is a list of prompts, each with the points a good reply should (or should not) make. Each model answers every prompt, sometimes several times: once per attempt (repeats), system prompt and temperature the blueprint asks for.',
      [
        'Verdict: each point of each reply is graded, either by a function (a regular expression, a length limit, a check of a tool call) or by a panel of judge models. A verdict is a value between 0 and 1, “does not apply”, or an error.',
        'Attempt: the weighted mean of the reply’s verdicts; a failed gate point sets it to 0. Errors are left out, never counted as 0; an attempt with no verdict at all has no score.',
        'Prompt: the mean of its attempts.',
        'Model on a blueprint: the mean over its prompts, shown from 0 to 100.',
        'Leaderboard: the mean of a model’s blueprint scores, on the latest complete run of each blueprint.',
      ],
      'Judged points are asked as questions with a fixed scale; the judges’ probabilities over the labels give an expected value, and the panel’s value is the mean of the judges that answered.',
    ],
  },
  {
    id: 'intervals',
    title: 'Intervals: how far the score could move',
    body: [
      'A score is measured on a sample of prompts. Another sample of prompts of the same kind would give a somewhat different score; the 95% interval shows how different. Every interval is shown with n, the number of prompts it rests on, and the number of clusters where there are several.',
      [
        'Clustered: when a prompt was answered several times (repeats, several system prompts or temperatures), its answers are not independent evidence, so every interval treats each prompt as one cluster: Repeating a prompt ten times does not make the interval ten times narrower.',
        'From 30 prompts: the normal interval on a cluster-robust standard error with the finite-cluster correction G/(G−1), as in Miller 2024, “Adding Error Bars to Evals”.',
        'From 2 to 29 prompts, where the normal approximation is too optimistic: a bootstrap with bias correction and acceleration (BCa) that resamples whole prompts with all their attempts. At very few prompts it is still rough (it covered about 90% rather than 95% in our simulations at 15 prompts), which is why n is always shown.',
        'Pass rates (every prompt scored exactly 0 or 1): the Wilson interval, which holds at any n: five passes out of five gives 56.6% to 100%, not “100% ± 0”.',
        'Across blueprints: a leaderboard score mixes blueprints that differ a lot from each other. Its interval comes from a hierarchical bootstrap that resamples blueprints and then prompts within them, so it reflects how much the ranking depends on which blueprints were chosen, not only the noise within each one.',
      ],
      'Two overlapping intervals do not mean two models are equal, and two intervals that barely miss each other do not prove they differ: for that, read the paired comparison.',
    ],
    sources: ['Miller (2024), “Adding Error Bars to Evals: A Statistical Approach to Language Model Evaluations”', 'Efron (1987), “Better Bootstrap Confidence Intervals”', 'Wilson (1927), “Probable Inference, the Law of Succession, and Statistical Inference”'],
  },
  {
    id: 'paired',
    title: 'Comparing two models: paired differences and Holm',
    body: [
      'When two models answered the same prompts, Assay compares them prompt by prompt: for each shared prompt the difference of their scores, then the mean of those differences with its 95% interval and p-value from a paired t-test, the correlation between the two models’ prompt scores and n, the number of shared prompts (wins, losses and ties and an exact sign test are shown beside it). On a leaderboard, each blueprint the two share counts equally, as in the board score, and the test is stratified by blueprint. Because a hard prompt is hard for both, pairing removes that shared variation, and a real difference shows up with far fewer prompts than two side-by-side scores would need.',
      'When many pairs are compared at once (every model against the leader, or every neighbour on a leaderboard), some would look significant by chance alone. Assay adjusts the p-values with Holm’s method, which keeps the chance of any false “different” at 5% across the whole set.',
    ],
    sources: ['Holm (1979), “A Simple Sequentially Rejective Multiple Test Procedure”'],
  },
  {
    id: 'bands',
    title: 'Tied bands: ranks you should not over-read',
    body: [
      'A leaderboard sorts models by score, but a 0.3-point gap is usually noise. Every pair of ranked models gets a paired test on the prompts they share, and the whole set of tests is corrected with Holm’s method at 5%. A model’s band runs from 1 + the number of models clearly better than it to N − the number clearly worse, shown as a rank range (“rank 2–4”), much as LMArena shows rank intervals. Models whose ranges overlap are statistically tied: treat their order as undecided. A model above another’s whole range is ahead with 95% confidence for the set as a whole.',
    ],
  },
  {
    id: 'passk',
    title: 'pass@k and pass^k: one good answer, or every answer good',
    body: [
      'Where a blueprint asks for several attempts per prompt and sets a pass threshold (pass_threshold:), an attempt passes when its score reaches the threshold. From n attempts of which c passed:',
      [
        'pass@k is the chance that at least one of k attempts passes: 1 − C(n−c, k) / C(n, k). It answers “if I try k times, will I get a good answer?”',
        'pass^k is the chance that all k attempts pass: C(c, k) / C(n, k). It answers “can I rely on every answer?”, and falls fast for a model that is only sometimes right.',
      ],
      'Both are the unbiased estimators of Chen et al. (2021): they use every attempt made rather than only the first k, and are shown for every k up to n.',
    ],
    sources: ['Chen et al. (2021), “Evaluating Large Language Models Trained on Code”'],
  },
  {
    id: 'drift',
    title: 'Drift: a test, not a threshold',
    body: [
      'A scheduled blueprint is run again on the same version with the same models, bypassing the response cache, so a change in score is a change in the model. Between two consecutive scheduled runs of the same version, for each model, Assay computes the paired difference over prompts with a bootstrap interval. A drift is flagged only when the interval excludes 0 (the change is real) and reaches the blueprint’s minimum detectable effect (the change could be as large as the smallest change its prompts can reliably show, see the planner below). Requiring the estimate itself to exceed that effect would miss half of the changes of exactly that size; with this rule a change of one minimum detectable effect is flagged about 80% of the time, and no change at all about 5% of the time, as our simulations check.',
      'Every reply also records what the provider says it served (the model name in its response, its system fingerprint and headers), so a flag can say when the provider changed the model behind the same id. The drift page lists the flags and links to the prompts that moved most.',
    ],
  },
  {
    id: 'planner',
    title: 'The sample-size planner',
    body: [
      'How many prompts does a blueprint need? From its last run’s variance and the correlation between models’ prompt scores, the planner gives the minimum detectable difference: the smallest paired difference the blueprint would find 80% of the time at the 5% level. For a chosen difference δ it gives the number of prompts needed, n = (z₁₋α/₂ + z₁₋β)² ω² / δ², where ω² is the variance of the paired differences. It is shown on the blueprint page and by assay plan BLUEPRINT.',
    ],
  },
  {
    id: 'alpha',
    title: 'Judge reliability: α, disagreement and self-judging',
    body: [
      'A judged score is only as good as its judges. Beside a run’s, a blueprint’s and a board’s judged numbers Assay shows how far the panel agreed:',
      [
        'α is Krippendorff’s alpha (interval version) over all the judged verdicts at that level (a run, a model’s judges in a run, a blueprint’s latest run, or a model across the runs a leaderboard ranks it on): each verdict a unit, each judge a coder. It is 1 when the judges always agree, 0 when they agree no better than chance, negative when they disagree systematically. It is computed over the pooled data, not averaged from smaller αs. Krippendorff’s guide: from 0.80 reliable, from 0.667 tentative, below that not reliable.',
        `Units and pairs: every α is shown with the verdicts it rests on (units: verdicts with at least two judges’ values) and the pairs of values compared within them. Below ${ALPHA_MIN_UNITS} units it is not shown at all; the page says “too few verdicts to tell”. Over one verdict α is 0 or 1 whatever the judges said, and over a handful it swings as widely; Krippendorff asks for far more data than ${ALPHA_MIN_UNITS} units before α can be said to clear 0.80, so read an α over few units as rough.`,
        'One verdict or one prompt has no α: there the prompt page shows each judge’s answer and the panel’s spread (their standard deviation). A point graded by a function has no judges and shows no agreement.',
        'Coverage: how many assessments each judge made, and how many judged verdicts had at least two judges’ values. Only those inform α.',
        'Disagreement: the share of those verdicts where the judges’ values spread widely (a standard deviation above 0.25: for two judges, more than half the scale apart). Such points are flagged on the prompt page, with each judge’s reasoning.',
        'Agreement with the panel: for each judge, the mean distance between its value and the mean of the other judges on the same verdicts, and its mean value (a lenient or harsh judge shows here).',
        'Self-judging: a judge of the same model as the one graded (the same provider-model id, through any host), or of the same maker (a sibling model, where the model id tells its maker: an org such as openai/… or a known series such as gpt-, claude-, gemini-), is flagged. Judges tend to favour replies that read like their own, so read such a score with that in mind.',
      ],
      'High α says the judges agree with each other, not that they are right: a panel can agree on a wrong reading. The judges’ reasoning on each verdict is there to check.',
    ],
    sources: ['Krippendorff (2011), “Computing Krippendorff’s Alpha-Reliability”', 'Krippendorff (2004), “Content Analysis: An Introduction to Its Methodology”', 'Panickssery et al. (2024), “LLM Evaluators Recognize and Favor Their Own Generations”'],
  },
  {
    id: 'coverage',
    title: 'Coverage and withheld scores',
    body: [
      'A verdict can be an error: a judge that did not answer after retries, a check that could not run. Errors are counted and shown, never scored as 0. Coverage says, for judged and for function-graded points, how many verdicts got a result. When fewer than half of a model’s judged verdicts, or of its function-graded ones, got one, its score is withheld and the page says why, rather than showing a number that rests on a few leftovers. Sealed prompts (a blueprint’s held-out test split) count in the scores but are never shown.',
    ],
  },
  {
    id: 'cost',
    title: 'Cost and latency',
    body: [
      'Beside quality, each leaderboard shows per model the mean cost per prompt over the runs it is ranked on (from the token counts and prices the providers reported) and the median reply latency of those runs, each averaged over the model’s blueprints.',
    ],
  },
];
