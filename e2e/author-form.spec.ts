/**
 * The form view of /author (issue 16): an author starts from an example, edits points in the
 * form, and the YAML changes on those lines only, its comments kept. The current text is read
 * from the workspace's hidden mirror (`data-testid="author-yaml"`), never from the editor.
 */
import { expect, test, type Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { changedLines } from './author-kit';

const SHOTS = process.env.ASSAY_SCREENS_DIR ?? 'test-results/author-form';
mkdirSync(SHOTS, { recursive: true });
const shot = (page: Page, name: string) => page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });

const yamlOf = async (page: Page) => (await page.getByTestId('author-yaml').textContent()) ?? '';

test("editing a point's weight and gate in the form changes only that point's lines, comments kept", async ({ page }) => {
  await page.goto('/author?example=medical-facts-weights.yml');
  const form = page.getByTestId('form-view');
  await expect(form.getByRole('heading', { name: 'Form view' })).toBeVisible();
  const original = await yamlOf(page);
  expect(original.split('\n')[0]).toBe('# yaml-language-server: $schema=../../schema/blueprint.json');

  // the header and the first prompt, as the parser reads them
  await expect(form.getByLabel('Title', { exact: true })).toHaveValue('Safe answers about medication, weighted and cited');
  const weight = form.getByLabel('Weight of point 2 in prompt paracetamol-max-dose');
  await expect(weight).toHaveValue('1.5');
  await expect(form.getByLabel('Gate of point 1 in prompt paracetamol-max-dose')).toBeChecked();
  await expect(form.getByLabel('Citation of point 2 in prompt paracetamol-max-dose')).toHaveValue('NHS: paracetamol for adults');
  await shot(page, '1-form-view');

  await weight.fill('2.5');
  const started = Date.now();
  await weight.press('Enter');
  await expect.poll(() => yamlOf(page), { intervals: [10] }).not.toBe(original);
  console.log(`form edit → YAML mirror: ${Date.now() - started} ms`);
  const afterWeight = await yamlOf(page);
  // exactly the weight line of that point, nothing else: the comment stays
  const line = original.split('\n').indexOf('      - point: "Mentions leaving at least 4 hours between doses"') + 2;
  expect(changedLines(original, afterWeight)).toEqual([{ line, before: '        weight: 1.5', after: '        weight: 2.5' }]);
  await expect(form.getByLabel('Weight of point 2 in prompt paracetamol-max-dose')).toHaveValue('2.5');
  await shot(page, '2-weight-edited');

  // a gate on a point written as a plain string: the point becomes a mapping, on its own lines
  await form.getByText('ibuprofen-with-asthma').click();
  const gate = form.getByLabel('Gate of point 1 in prompt ibuprofen-with-asthma');
  await gate.check();
  await expect.poll(() => yamlOf(page)).toContain('- point: "Says that ibuprofen can make asthma worse for some people"\n        gate: true\n');
  const afterGate = await yamlOf(page);
  const a = afterWeight.split('\n');
  const b = afterGate.split('\n');
  const at = a.indexOf('      - "Says that ibuprofen can make asthma worse for some people"');
  expect(b.slice(0, at)).toEqual(a.slice(0, at));
  expect(b.slice(at + 2)).toEqual(a.slice(at + 1));
  expect(afterGate.startsWith('# yaml-language-server: $schema=../../schema/blueprint.json\n')).toBe(true);
  await expect(gate).toBeChecked();
  await shot(page, '3-gate-on-a-string-point');
});

test('judge questions show their levels and options, and a new level lands in the YAML', async ({ page }) => {
  await page.goto('/author?example=grounded-summary-questions.yml');
  const form = page.getByTestId('form-view');
  const levels = form.getByLabel('Levels of point 2 in prompt quarterly-figures');
  await expect(levels).toHaveValue('Fabricated\nMostly fabricated\nMostly grounded\nFully grounded');
  await expect(form.getByLabel('Options of point 3 in prompt quarterly-figures')).toHaveValue('left_it_out: 1\nflagged_it_as_unknown: 1\nhedged_it: 0.5\nstated_it_as_fact: 0\nnothing_missing: null');
  await levels.fill('Fabricated\nMostly fabricated\nPartly grounded\nMostly grounded\nFully grounded');
  await levels.blur();
  await expect.poll(() => yamlOf(page)).toContain('levels: [Fabricated, Mostly fabricated, Partly grounded, Mostly grounded, Fully grounded]');
  await shot(page, '4-question-levels');
});

test('a point added in the form lands at the end of its block, and a removed one takes only its lines', async ({ page }) => {
  await page.goto('/author?example=medical-facts-weights.yml');
  const form = page.getByTestId('form-view');
  await expect(form.getByLabel('Weight of point 2 in prompt paracetamol-max-dose')).toBeVisible();
  const original = await yamlOf(page);
  await form.getByText('ibuprofen-with-asthma').click();
  await form.getByLabel('New point for prompt ibuprofen-with-asthma').fill('Recommends ibuprofen without any caution');
  await form.getByRole('button', { name: 'Add to should not' }).nth(1).click();
  // the prompt is the file's last: the new block follows its last line
  await expect.poll(() => yamlOf(page)).toBe(`${original}    should_not:\n      - "Recommends ibuprofen without any caution"\n`);
  await expect(form.getByLabel('Text of point 4 in prompt ibuprofen-with-asthma')).toHaveValue('Recommends ibuprofen without any caution');
  await shot(page, '5-point-added');

  await form.getByRole('button', { name: 'Remove point 3' }).first().click();
  await expect.poll(() => yamlOf(page)).not.toContain('$ref: see_a_doctor\n      - $matches');
  const after = (await yamlOf(page)).split('\n');
  const before = `${original}    should_not:\n      - "Recommends ibuprofen without any caution"\n`.split('\n');
  const gone = before.indexOf('      - $ref: see_a_doctor');
  expect(after).toEqual([...before.slice(0, gone), ...before.slice(gone + 1)]);
  await shot(page, '6-point-removed');
});
