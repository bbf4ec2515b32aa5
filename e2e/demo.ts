/**
 * What the e2e server's demo contains (lib/server/db/seed/seed-demo.ts: the demo blueprints in
 * lib/server/db/seed/demo/ run by the pipeline against the fake provider, under fixed run
 * ids), and helpers the reader specs share.
 */
import type { Page, TestInfo } from '@playwright/test';

export const DEMO = {
  blueprintId: 'demo__everyday-answers',
  blueprintTitle: 'Everyday answers: health, safety and facts',
  latestRun: 'everyday-answers-run-3',
  olderRun: 'everyday-answers-run-1',
  liveRun: 'everyday-answers-run-live',
  /** strong, verbose, erratic (errs sometimes, writes raw HTML), cautious (refuses), weak: demo-models.ts */
  models: ['openrouter:openai/gpt-4o', 'anthropic:claude-3-5-sonnet-20241022', 'openrouter:meta-llama/llama-3.1-70b-instruct', 'openrouter:google/gemini-2.0-flash-001', 'openai:gpt-4o-mini'],
  visiblePrompts: 12,
  sealedKey: 'sealed-holdout-river',
  hostile: { promptKey: 'markdown-planets-table', modelId: 'openrouter:meta-llama/llama-3.1-70b-instruct' },
};

/** Text of every sealed prompt, point and reply in the seed carries one of these. */
export const SEALED_TEXT = /SEALED-|sealed-holdout|sealed-answer/;

/** A full-page screenshot kept as an artefact (test-results/screens) and attached to the report. */
export async function screenshot(page: Page, info: TestInfo, name: string): Promise<void> {
  const path = `test-results/screens/${name}.png`;
  await page.screenshot({ path, fullPage: true });
  await info.attach(name, { path, contentType: 'image/png' });
}

export const modelPath = (id: string) => id.split('/').map(encodeURIComponent).join('/');
