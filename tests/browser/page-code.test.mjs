// page-code.test.mjs — the selected kernel's generated code (docs/design.md §19): C and Triton from the worker, the
// load/store lines linked to their ops, the copy button, and the embed mode's &code.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openSite, openPage, closePage, waitForPlan, shot } from './page-helpers.mjs';

let site;
before(async () => {
  site = await openSite();
});
after(async () => {
  await site?.close();
});

const waitForCode = (page, pattern) =>
  page.waitForFunction(
    (source) => new RegExp(source).test(document.querySelector('[data-testid="code-text"]')?.textContent ?? ''),
    pattern.source,
    { timeout: 30_000 },
  );

test('a kernel shows its C code, then Triton; a load line selects its op', { timeout: 90_000 }, async () => {
  const page = await openPage(site, '#example=bias-relu');
  await waitForPlan(page);
  await page.locator('[data-testid="groups-table"] tr[data-group="2"]').click();
  await waitForCode(page, /static void group_2/);
  const code = await page.getByTestId('code-text').textContent();
  assert.match(code, /load 3145728 B: op 0 'x'/);
  assert.match(code, /load 3072 B: op 1 'bias'/);
  assert.match(code, /store 3145728 B: op 3 'z'/);
  assert.equal(await page.getByTestId('code-load').count(), 2);
  assert.equal(await page.getByTestId('code-store').count(), 1);
  assert.match(await page.getByTestId('code-status').textContent(), /2 loads \(3\.00 MiB\), 1 store \(3\.00 MiB\)/);
  const where = await page.evaluate(() => window.fusionPlayground.planner.ran);
  assert.ok(where.worker > 0, 'the code came from the worker');
  await shot(page, 'code-view-c');

  // Keyboard: the Triton toggle is a button reached by Tab.
  await page.getByTestId('code-dialect-triton').focus();
  await page.keyboard.press('Enter');
  await waitForCode(page, /@triton\.jit/);
  assert.equal(await page.getByTestId('code-dialect-triton').getAttribute('aria-pressed'), 'true');
  assert.match(await page.getByTestId('code-text').textContent(), /tl\.load\(t1 \+ \(i % 768\), mask=mask\)/);
  await shot(page, 'code-view-triton');

  await page.getByTestId('code-load').first().locator('a').click();
  await page.waitForFunction(() => window.fusionPlayground?.store.getState().selection?.kind === 'op');
  assert.deepEqual(await page.evaluate(() => window.fusionPlayground.store.getState().selection), {
    kind: 'op',
    id: 0,
  });
  assert.deepEqual(page.problems, []);
  await closePage(page);
});

test('the copy button puts the kernel on the clipboard', { timeout: 60_000 }, async () => {
  const page = await openPage(site, '#example=diamond');
  await page
    .context()
    .grantPermissions(['clipboard-read', 'clipboard-write'], { origin: site.server.url.replace(/\/$/, '') });
  await waitForPlan(page);
  const id = await page.evaluate(() => window.fusionPlayground.store.getState().plan.groups.find((g) => g.kernel).id);
  await page.locator(`[data-testid="groups-table"] tr[data-group="${id}"]`).click();
  await waitForCode(page, /static void group_/);
  await page.getByTestId('code-copy').click();
  await page.waitForFunction(() => document.querySelector('[data-testid="code-status"]').textContent === 'Copied.');
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  assert.match(copied, /^\/\/ group \d+: 4 ops, 1 stage\nstatic void group_/);
  assert.deepEqual(page.problems, []);
  await closePage(page);
});

test('an embed with &code opens on the largest kernel with its code', { timeout: 60_000 }, async () => {
  const page = await openPage(site, '?embed&code#example=transformer-mlp', { width: 720, height: 640 });
  await waitForPlan(page);
  await waitForCode(page, /static void group_\d+/);
  assert.ok(await page.getByTestId('code-view').isVisible());
  assert.match(await page.getByTestId('code-text').textContent(), /store \d+ B: op \d+ /);
  await shot(page, 'code-view-embed');
  assert.deepEqual(page.problems, []);
  await closePage(page);
});
