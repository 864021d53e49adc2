// page-embed.test.mjs — embed mode: minimal chrome, numbers readable at 700 px without scrollbars,
// read-only unless ?editable, and the Embed button's snippet points at the same graph.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openSite, openPage, waitForPlan, shot } from './page-helpers.mjs';

let site;
before(async () => {
  site = await openSite();
});
after(async () => {
  await site?.close();
});

test(
  '?embed at 700 px shows graph and numbers, no scrollbars on the numbers, read-only',
  { timeout: 60_000 },
  async () => {
    const page = await openPage(site, '?embed#example=transformer-mlp', { width: 700, height: 480 });
    await waitForPlan(page);
    assert.equal(await page.getByTestId('topbar').isVisible(), false);
    assert.equal(await page.getByTestId('json-editor').isVisible(), false);
    assert.equal(await page.getByTestId('add-op').isVisible(), false);
    assert.equal(await page.getByTestId('bytes-fused').isVisible(), true);
    const overflow = await page.evaluate(() =>
      [...document.querySelectorAll('[data-testid="totals"] .card, [data-testid="totals"] .card *')]
        .filter((el) => el.scrollWidth > el.clientWidth + 1)
        .map((el) => el.className || el.id),
    );
    assert.deepEqual(overflow, [], 'no number overflows its card');
    const page_ = await page.evaluate(() => ({
      sw: document.documentElement.scrollWidth,
      cw: document.documentElement.clientWidth,
    }));
    assert.ok(page_.sw <= page_.cw, 'no horizontal scrollbar');
    await shot(page, 'embed-view');
    await page.context().close();
  },
);

test('?embed&editable&json shows the JSON box and the edit tools', { timeout: 60_000 }, async () => {
  const page = await openPage(site, '?embed&editable&json#example=diamond', { width: 800, height: 520 });
  await waitForPlan(page);
  assert.equal(await page.getByTestId('json-editor').isVisible(), true);
  assert.equal(await page.getByTestId('add-op').isVisible(), true);
  await page.context().close();
});

test('the Embed button offers an iframe snippet for this graph', { timeout: 60_000 }, async () => {
  const page = await openPage(site, '#example=diamond');
  await waitForPlan(page);
  await page.locator('#export-menu summary').click(); // Embed is in the Export menu
  await page.getByTestId('embed-button').click();
  const snippet = await page.getByTestId('embed-snippet').inputValue();
  assert.match(snippet, /^<iframe src="http:\/\/127\.0\.0\.1:\d+\/\?embed#example=diamond"/);
  await page.locator('#embed-json').check();
  assert.match(await page.getByTestId('embed-snippet').inputValue(), /\?embed&amp;json#example=diamond/);
  await page.context().close();
});
