import { ALIAS_BOMB_469, MERGE_BOMB_631, deepJson, deepYaml, manyPoints, manyDocuments } from '@/lib/core/blueprint/bombs';
import { parseBlueprint } from '@/lib/core';
const which = process.argv[2]!;
const inputs: Record<string, () => [string, string]> = {
  alias: () => [ALIAS_BOMB_469, 'a.yml'], merge: () => [MERGE_BOMB_631, 'm.yml'],
  json: () => [deepJson(10000), 'd.json'], yaml: () => [deepYaml(10000), 'd.yml'],
  points: () => [manyPoints(200000), 'p.yml'], docs: () => [manyDocuments(200000), 'docs.yml'],
  big: () => ['title: big\n# ' + 'x'.repeat(50 * 1024 * 1024) + '\n- prompt: hi\n', 'big.yml'],
};
const [text, file] = inputs[which]!();
const rss0 = process.memoryUsage().rss;
let peak = rss0; const t = setInterval(() => { peak = Math.max(peak, process.memoryUsage().rss); }, 5);
const t0 = performance.now();
try {
  const r = parseBlueprint(text, { file });
  const ms = performance.now() - t0; peak = Math.max(peak, process.memoryUsage().rss);
  console.log(JSON.stringify({ which, bytes: text.length, ms: Math.round(ms), rssGrowthMB: Math.round((peak - rss0) / 1e6), ok: r.ok, first: r.ok ? null : `${r.errors[0]!.line}:${r.errors[0]!.col} ${r.errors[0]!.code}: ${r.errors[0]!.message}` }));
} catch (e) { console.log(JSON.stringify({ which, ms: Math.round(performance.now() - t0), threw: String(e).slice(0, 200) })); }
clearInterval(t);
