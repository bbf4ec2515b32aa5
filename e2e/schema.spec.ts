import { expect, test } from '@playwright/test';
import { readFileSync } from 'node:fs';

test('serves the blueprint JSON Schema, identical to the committed schema/blueprint.json', async ({ request }) => {
  const res = await request.get('/schema/blueprint.json');
  expect(res.status()).toBe(200);
  expect(res.headers()['content-type']).toMatch(/^application\/schema\+json/);
  expect(res.headers()['cache-control']).toMatch(/public/);
  expect(await res.json()).toEqual(JSON.parse(readFileSync('schema/blueprint.json', 'utf8')));
});
