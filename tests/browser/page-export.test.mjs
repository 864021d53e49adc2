// page-export.test.mjs — exports: the plan JSON download is the planner's result, the Markdown table goes to
// the clipboard, the graph saves as a PNG.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { openSite, openPage, closePage, waitForPlan } from './page-helpers.mjs';

let site;
before(async () => {
  site = await openSite();
});
after(async () => {
  await site?.close();
});

test('Download plan JSON saves the plan shown on screen', { timeout: 60_000 }, async () => {
  const page = await openPage(site, '#example=diamond');
  await waitForPlan(page);
  await page.locator('summary', { hasText: /^Export/ }).click();
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-json').click()]);
  assert.equal(download.suggestedFilename(), 'fusion-plan.json');
  const saved = JSON.parse(readFileSync(await download.path(), 'utf8'));
  assert.deepEqual(saved, await page.evaluate(() => window.fusionPlayground.store.getState().plan));
  await closePage(page);
});

test('Save graph as PNG downloads an image', { timeout: 60_000 }, async () => {
  const page = await openPage(site, '#example=diamond');
  await waitForPlan(page);
  await page.locator('summary', { hasText: /^Export/ }).click();
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-png').click()]);
  const bytes = readFileSync(await download.path());
  assert.deepEqual([...bytes.subarray(1, 4)], [...Buffer.from('PNG')]);
  await closePage(page);
});

test('Copy plan as Markdown puts a table with every group on the clipboard', { timeout: 60_000 }, async () => {
  const page = await openPage(site, '#example=transformer-mlp');
  await page
    .context()
    .grantPermissions(['clipboard-read', 'clipboard-write'], { origin: site.server.url.replace(/\/$/, '') });
  await waitForPlan(page);
  await page.locator('summary', { hasText: /^Export/ }).click();
  await page.getByTestId('export-markdown').click();
  await page.getByTestId('notice').waitFor();
  const md = await page.evaluate(() => navigator.clipboard.readText());
  const groups = await page.evaluate(() => window.fusionPlayground.store.getState().plan.groups.length);
  assert.match(md, /^\*\*Fusion plan\*\*/);
  assert.equal(
    md
      .trim()
      .split('\n')
      .filter((l) => /^\| \d+ \|/.test(l)).length,
    groups,
  );
  await closePage(page);
});
