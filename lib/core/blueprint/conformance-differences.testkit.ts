/**
 * Where Assay's parser deliberately differs from Weval's on the recorded vectors: each entry
 * names the vector, the defect (conformance/README.md numbering; 0 = an Assay extension, not a
 * Weval defect) and turns Weval's recorded output into the output Assay must produce. Every
 * entry also says how many points (or prompts) it changes, so an entry that no longer applies,
 * or applies more widely than written, fails the test. The "Blueprint parser" section of
 * docs/compatibility.md lists the same differences with their reasons.
 */

type Json = Record<string, unknown>;
type WevalPoint = Json;

export interface Difference {
  vector: string;
  defect: number;
  why: string;
  /** How many points/prompts `expect` rewrites in this vector. */
  changes: number;
  /** Weval's recorded output → what Assay's projection must equal; returns the number of changes made. */
  expect: (output: Json) => number;
}

/**
 * Defect 1: Weval read each quoted `"$fn: arg"` string as a function literally named
 * `fn: arg`. Assay reads the function and its argument; every one of the 89 points, written out.
 */
export const QUOTED_FUNCTIONS: ReadonlyArray<[weval: string, fn: string, fnArgs: unknown]> = [
  ["contains: 'Evaluation Evidence:'", 'contains', 'Evaluation Evidence:'],
  ["contains: 'Rating:'", 'contains', 'Rating:'],
  ["matches: 'Rating: [0-9]'", 'matches', 'Rating: [0-9]'],
  ["icontains: 'False'", 'icontains', 'False'],
  ["icontains: 'No'", 'icontains', 'No'],
  ["icontains: '(D)'", 'icontains', '(D)'],
  ["icontains: '(A)'", 'icontains', '(A)'],
  ["icontains: ']}].'", 'icontains', ']}].'],
  ["icontains: 'valid'", 'icontains', 'valid'],
  ["icontains: '(F)'", 'icontains', '(F)'],
  ["icontains: '(B)'", 'icontains', '(B)'],
  ["icontains: '(C)'", 'icontains', '(C)'],
  ["icontains: '123'", 'icontains', '123'],
  ["icontains: '6'", 'icontains', '6'],
  ["icontains: '(E)'", 'icontains', '(E)'],
  ["icontains: 'yes'", 'icontains', 'yes'],
  ["icontains: 'Yes'", 'icontains', 'Yes'],
  ["icontains: 'costume counterpart oven'", 'icontains', 'costume counterpart oven'],
  ['icontains: Peninsular Spanish', 'icontains', 'Peninsular Spanish'],
  ['icontains: European Portuguese', 'icontains', 'European Portuguese'],
  // The quotes do not enclose the whole argument: the author means this text, quotes included.
  ['icontains: "label": "the semantics of the provided text is hateful"', 'icontains', '"label": "the semantics of the provided text is hateful"'],
  ['icontains: "label": "the semantics of the provided text is non-hateful"', 'icontains', '"label": "the semantics of the provided text is non-hateful"'],
  ['matches: "^\\*\\*Reasoning:\\*\\* .*\\n\\*\\*Result:\\*\\* (A|B)$"', 'matches', '^\\*\\*Reasoning:\\*\\* .*\n\\*\\*Result:\\*\\* (A|B)$'],
  ['matches: "^\\*\\*Reasoning:\\*\\* .*\\n\\*\\*Result:\\*\\* ([1-5])$"', 'matches', '^\\*\\*Reasoning:\\*\\* .*\n\\*\\*Result:\\*\\* ([1-5])$'],
  ['matches: "^(No revision needed\\.|<revised_response>.*</revised_response>)$"', 'matches', '^(No revision needed\\.|<revised_response>.*</revised_response>)$'],
  ['matches: "^Comparison: .*\\nPreferred: A$"', 'matches', '^Comparison: .*\nPreferred: A$'],
  ['matches: "^[AB]$"', 'matches', '^[AB]$'],
  ['matches: "^Comparison: .*\\nMore helpful: A$"', 'matches', '^Comparison: .*\nMore helpful: A$'],
  ['matches: "^\\[\\[[AB]\\]\\]$"', 'matches', '^\\[\\[[AB]\\]\\]$'],
  ['matches: "-50\\."', 'matches', '-50\\.'],
  ['matches: "8n² \\+ 4n \\+ 1\\."', 'matches', '8n² \\+ 4n \\+ 1\\.'],
  ['matches: "1581330\\."', 'matches', '1581330\\.'],
  ['matches: "12\\."', 'matches', '12\\.'],
  ['matches: "√5/2"', 'matches', '√5/2'],
  ['matches: "248\\."', 'matches', '248\\.'],
  ['contains_all_of: ["f(x) = -1", "f(x) = x - 1"]', 'contains_all_of', ['f(x) = -1', 'f(x) = x - 1']],
  ['matches: "2625"', 'matches', '2625'],
  ['icontains: "2 molecules of CO2"', 'icontains', '2 molecules of CO2'],
  ['icontains: "1 molecule of ATP"', 'icontains', '1 molecule of ATP'],
  ['icontains: "oxygen"', 'icontains', 'oxygen'],
  ['icontains: "bank"', 'icontains', 'bank'],
  ['icontains: "Rigidity or stiffness"', 'icontains', 'Rigidity or stiffness'],
  ['icontains: "wash cloth"', 'icontains', 'wash cloth'],
  ['icontains: "wet"', 'icontains', 'wet'],
  ['icontains: "circulatory system"', 'icontains', 'circulatory system'],
  ['icontains: "paper strips"', 'icontains', 'paper strips'],
  ['icontains: "water bottle"', 'icontains', 'water bottle'],
  ['icontains: "food dish"', 'icontains', 'food dish'],
  ['icontains: "Protect her cows"', 'icontains', 'Protect her cows'],
  ['icontains: "Maria"', 'icontains', 'Maria'],
  ['matches: "^\\s*32840192\\s*$"', 'matches', '^\\s*32840192\\s*$'],
  ['matches: "^.*13743912.*$"', 'matches', '^.*13743912.*$'],
  ['matches: "^.*16413809.*$"', 'matches', '^.*16413809.*$'],
  ['matches: "^.*3919.*$"', 'matches', '^.*3919.*$'],
  ['matches: "^.*11233.*$"', 'matches', '^.*11233.*$'],
  ['matches: "^.*59.*$"', 'matches', '^.*59.*$'],
  ['matches: "^.*97.*$"', 'matches', '^.*97.*$'],
  ['matches: "^.*22.*$"', 'matches', '^.*22.*$'],
  ['matches: "^.*30.*$"', 'matches', '^.*30.*$'],
  // Inside the quotes, `\\d` is `\d` and an unknown escape such as `\[` stays as the regex escape it is.
  ['matches: "^\\[\\\\d+\\\\.\\\\d+s, \\\\d+\\\\.\\\\d+s\\]$"', 'matches', '^\\[\\d+\\.\\d+s, \\d+\\.\\d+s\\]$'],
  ['matches: ".*\\"\\\\d+\\": \\[\\\\d+,\\\\d+,\\\\d+,\\\\d+\\].*"', 'matches', '.*"\\d+": \\[\\d+,\\d+,\\d+,\\d+\\].*'],
  ['matches: "^timestamps: \\[\\\\d+, \\\\d+\\\\.\\\\d+\\]$"', 'matches', '^timestamps: \\[\\d+, \\d+\\.\\d+\\]$'],
  ['matches: "^bboxes: \\{\\\\d+:\\[\\\\d+,\\\\d+,\\\\d+,\\\\d+\\].*"', 'matches', '^bboxes: \\{\\d+:\\[\\d+,\\d+,\\d+,\\d+\\].*'],
  ['matches: "^GT: \\"\\\\d+\\":\\[\\\\d+,\\\\d+,\\\\d+,\\\\d+\\].*"', 'matches', '^GT: "\\d+":\\[\\d+,\\d+,\\d+,\\d+\\].*'],
  ["icontains: 'war of northern aggression'", 'icontains', 'war of northern aggression'],
];

/** Applies `fix` to every point (also inside alternative paths) of every prompt; counts the points it changed. */
function eachPoint(output: Json, fix: (point: WevalPoint) => WevalPoint | null): number {
  let changed = 0;
  for (const prompt of output.prompts as Json[]) {
    for (const block of ['points', 'should_not']) {
      const list = prompt[block] as unknown[] | undefined;
      if (!list) continue;
      prompt[block] = list.map((item) => {
        const one = (p: WevalPoint) => {
          const fixed = fix(p);
          if (!fixed) return p;
          changed++;
          return fixed;
        };
        return Array.isArray(item) ? item.map((p) => one(p as WevalPoint)) : one(item as WevalPoint);
      });
    }
  }
  return changed;
}

const quotedFunction = (point: WevalPoint): WevalPoint | null => {
  const row = QUOTED_FUNCTIONS.find(([weval]) => weval === point.fn);
  if (!row) return null;
  return { ...point, fn: row[1], fnArgs: row[2] };
};

/** Defect 6: an object definition reached by `$ref` was copied raw (`{$js: code}`), never normalised, weight and citation lost. */
const rawJsDefinition = (point: WevalPoint): WevalPoint | null => {
  if (!('$js' in point)) return null;
  // None of these `$ref`s writes its own weight or citation, so the point's are the defaults.
  return { fn: 'js', fnArgs: point.$js, multiplier: 1 };
};

function renamePrompt(index: number, id: string) {
  return (output: Json) => {
    const prompt = (output.prompts as Json[])[index]!;
    prompt.id = id;
    return 1;
  };
}

const defect1 = (vector: string, changes: number): Difference => ({
  vector,
  defect: 1,
  why: 'a quoted "$fn: arg" string is the function fn with its argument, not an unknown function named "fn: arg" that is silently dropped',
  changes,
  expect: (output) => eachPoint(output, quotedFunction),
});

const defect6 = (vector: string, changes: number): Difference => ({
  vector,
  defect: 6,
  why: '`$ref` to an object definition yields a normalised point ($js → fn js) keeping the reference\'s own weight/citation, not a raw copy that no evaluator reads',
  changes,
  expect: (output) => eachPoint(output, rawJsDefinition),
});

const defect7 = (vector: string, index: number, id: string): Difference => ({
  vector,
  defect: 7,
  why: `a second prompt with an already used id is reported (warning with line and column) and renamed "${id}", instead of silently overwriting the first prompt's results`,
  changes: 1,
  expect: renamePrompt(index, id),
});

export const CORPUS_DIFFERENCES: readonly Difference[] = [
  defect1('blueprints/benchmarks/aft-reasoning-assessment.yml', 6),
  defect1('blueprints/benchmarks/big-bench-hard-bbh.yml', 23),
  defect1('blueprints/benchmarks/discriminating-similar-languages-dsl-shared-task.yml', 2),
  defect1('blueprints/benchmarks/generative-ai-for-hate-speech-detection-cross-dataset.yml', 4),
  defect1('blueprints/benchmarks/jetts-benchmark.yml', 6),
  defect1('blueprints/benchmarks/llm-as-a-judge-evaluation-framework.yml', 4),
  defect1('blueprints/benchmarks/olymmath.yml', 8),
  defect1('blueprints/benchmarks/open-llm-leaderboard.yml', 13),
  defect1('blueprints/benchmarks/red-teaming-for-llms-on-mathematics-tasks.yml', 10),
  defect1('blueprints/benchmarks/v-star.yml', 12),
  defect1('blueprints/lost-cause-narrative-probe.yml', 1),
  {
    vector: 'blueprints/test.yml',
    defect: 3,
    why: 'function names resolve through the explicit alias table to one canonical name: `$imatch` is stored as `imatches`, `$imatch_at_least_n_of` as `imatches_at_least_n_of` (Weval kept the spellings and registered both names)',
    changes: 2,
    expect: (output) => eachPoint(output, (p) => (typeof p.fn === 'string' && p.fn.startsWith('imatch') && !p.fn.startsWith('imatches') ? { ...p, fn: p.fn.replace(/^imatch/, 'imatches') } : null)),
  },
  defect6('blueprints/compass/agreeable.yml', 4),
  defect6('blueprints/compass/confident.yml', 3),
  defect6('blueprints/compass/conscientious.yml', 5),
  defect6('blueprints/compass/disagreeable.yml', 5),
  defect6('blueprints/compass/extroverted.yml', 6),
  defect6('blueprints/compass/figurative.yml', 4),
  defect6('blueprints/compass/heterodox.yml', 5),
  defect6('blueprints/compass/introverted.yml', 6),
  defect6('blueprints/compass/literal.yml', 12),
  defect6('blueprints/compass/normative.yml', 5),
  defect6('blueprints/compass/proactive.yml', 5),
  defect6('blueprints/compass/reactive.yml', 4),
  defect6('blueprints/compass/risk-averse.yml', 3),
  defect6('blueprints/compass/risk-seeking.yml', 3),
  defect6('blueprints/compass/spontaneous.yml', 4),
  defect6('blueprints/latent-discrimination-hiring.yml', 17),
  defect6('blueprints/latent-discrimination-tenancy.yml', 20),
  defect7('blueprints/compass/extroverted.yml', 17, 'mcq-weekend-recharge-2'),
  defect7('blueprints/compass/introverted.yml', 23, 'mcq-meeting-style-2'),
  defect7('blueprints/users/Varunrnair/maternal-health-information-for-ruralsemi-urban-india_50_questions.yml', 31, 'hepatitis_b_pregnancy-2'),
];
