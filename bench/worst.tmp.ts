import { parseBlueprint } from '@/lib/core';
const cases: Record<string, string> = {
  prompts2000x40: 'prompts:\n' + Array.from({ length: 2000 }, (_, i) => `  - prompt: p${i}\n    should: [${Array(40).fill('x').join(',')}]\n`).join(''),
  brokenDefs20k: 'point_defs:\n' + Array.from({ length: 20000 }, (_, i) => `  d${i}: {$nofn: x}\n`).join('') + 'prompts:\n  - prompt: hi\n',
  unknownKeys40k: Array.from({ length: 40000 }, (_, i) => `k${i}: 1\n`).join('') + 'prompts:\n  - prompt: hi\n',
  docs1000: 'title: t\n' + Array.from({ length: 999 }, (_, i) => `---\n- prompt: p${i}\n  should: [x]\n`).join(''),
  refs: 'point_defs:\n  a: {$contains: x}\nprompts:\n' + Array.from({ length: 2000 }, (_, i) => `  - prompt: p${i}\n    should: [${Array(20).fill('{$ref: a}').join(',')}]\n`).join(''),
  dupIds: 'prompts:\n' + Array.from({ length: 2000 }, () => `  - id: same\n    prompt: p\n`).join(''),
  promptKeys: 'prompts:\n  - prompt: hi\n' + Array.from({ length: 40000 }, (_, i) => `    z${i}: 1\n`).join(''),
};
for (const [k, t] of Object.entries(cases)) {
  const t0 = performance.now(); const r = parseBlueprint(t, { file: 'a.yml' });
  console.log(k.padEnd(16), (t.length / 1024).toFixed(0).padStart(5), 'KB', (performance.now() - t0).toFixed(0).padStart(6), 'ms', r.ok ? 'ok' : `${r.errors.length} errors: ${r.errors[0]!.message.slice(0, 60)}`, r.warnings.length, 'warnings');
}
