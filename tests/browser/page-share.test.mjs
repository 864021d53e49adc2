// page-share.test.mjs — share links: the URL carries the whole state, a new page restores the same graph and
// numbers; a damaged link shows a message and the default example; options toggle re-plans.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { DEFAULT_EXAMPLE } from '../../web/src/gallery/gallery.js';
import { openSite, openPage, closePage, waitForPlan, shownNumbers, editorText } from './page-helpers.mjs';

let site;
before(async () => {
  site = await openSite();
});
after(async () => {
  await site?.close();
});

test('an edited graph with changed options round-trips through its link', { timeout: 60_000 }, async () => {
  const page = await openPage(site, '#example=broadcast');
  let n = await waitForPlan(page);
  await page.locator('#options-menu summary').click(); // the rarely used options live in the Options menu
  await page.getByTestId('opt-broadcast').uncheck();
  n = await waitForPlan(page, n + 1);
  await page.evaluate(() =>
    window.fusionPlayground.store.dispatch({ type: 'edit-graph', edit: { type: 'remove', op: 6 } }),
  );
  await waitForPlan(page, n + 1);
  await page.waitForFunction(() => location.hash.startsWith('#state=1.'));
  await page.getByTestId('copy-link').click();
  await page.getByTestId('notice').waitFor();
  const url = page.url();
  const numbers = await shownNumbers(page);
  const text = await editorText(page);

  const again = await openPage(site, url.slice(site.server.url.length));
  await waitForPlan(again);
  assert.deepEqual(await shownNumbers(again), numbers);
  assert.equal(await editorText(again), text);
  assert.equal(await again.getByTestId('opt-broadcast').isChecked(), false);
  assert.deepEqual(again.problems, []);
  await closePage(page);
  await closePage(again);
});

test('a truncated link shows a message and the default example, not a blank page', { timeout: 60_000 }, async () => {
  const page = await openPage(site, '#state=1.N4IgLiBcLAOiB7ADgZ3pABAbVgOwxnCLgIYC2Ap');
  await waitForPlan(page);
  assert.match(await page.getByTestId('notice').textContent(), /damaged or incomplete/);
  assert.equal(await page.evaluate(() => window.fusionPlayground.store.getState().example), DEFAULT_EXAMPLE);
  assert.match(await page.getByTestId('bytes-fused-exact').textContent(), /\d/);
  await closePage(page);
});

test('resident sources changes the numbers the planner reports', { timeout: 60_000 }, async () => {
  const page = await openPage(site, '#example=bias-relu');
  const n = await waitForPlan(page);
  const before = await shownNumbers(page);
  await page.locator('#options-menu summary').click();
  await page.getByTestId('opt-resident').check();
  await waitForPlan(page, n + 1);
  const after = await shownNumbers(page);
  assert.ok(after.bytes_unfused < before.bytes_unfused);
  await closePage(page);
});
