// page-gallery.test.mjs — every gallery example opens by its link, renders its groups, and shows the same
// numbers as the native CLI for the same graph.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { GALLERY, exampleFile } from '../../web/src/gallery/gallery.js';
import { MAX_ROWS } from '../../web/src/views/plan-panel.js';
import { runCli } from '../wasm/native-cli.mjs';
import { openSite, openPage, closePage, waitForPlan, shownNumbers, shot, root } from './page-helpers.mjs';

let site;
before(async () => {
  site = await openSite();
});
after(async () => {
  await site?.close();
});

for (const entry of GALLERY) {
  const { id, title } = entry;
  const file = root(`examples/${exampleFile(entry)}`);
  test(`example “${title}” opens by link and shows the native CLI's numbers`, { timeout: 60_000 }, async () => {
    const cli = JSON.parse(runCli(readFileSync(file, 'utf8')).stdout);
    assert.equal(cli.ok, true);
    const page = await openPage(site, `#example=${id}`);
    await waitForPlan(page);
    const shown = await shownNumbers(page);
    assert.equal(shown.bytes_unfused, cli.bytes_unfused);
    assert.equal(shown.bytes_fused, cli.bytes_fused);
    assert.equal(shown.speedup, `${cli.speedup_estimate.toFixed(2)}×`);
    assert.equal(shown.kernels, `${cli.kernels_unfused} → ${cli.kernels_fused}`);
    // One table row per group (a plan of more than MAX_ROWS lists that many and one line counting the rest), the
    // example marked current in the gallery, and its text in the JSON box.
    const rows = cli.groups.length > MAX_ROWS ? MAX_ROWS + 1 : cli.groups.length;
    assert.equal(await page.locator('#groups-body tr').count(), rows);
    assert.equal(await page.evaluate(() => window.fusionPlayground.store.getState().example), id);
    assert.equal(await page.evaluate(() => window.fusionPlayground.store.getState().text), readFileSync(file, 'utf8'));
    if (id === 'resnet-basic-block') await shot(page, 'example-several-groups');
    assert.deepEqual(page.problems, []);
    await closePage(page);
  });
}

test('picking an example from the gallery menu opens it', { timeout: 60_000 }, async () => {
  const page = await openPage(site);
  const first = await waitForPlan(page);
  await page.getByText('Examples').click();
  await page.getByTestId('example-diamond').click();
  await waitForPlan(page, first + 1);
  assert.equal(await page.evaluate(() => location.hash), '#example=diamond');
  assert.match(await page.getByTestId('status').textContent(), /Planned 5 ops/);
  await shot(page, 'main-view');
  await closePage(page);
});
