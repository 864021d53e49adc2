// page-edit.test.mjs — editing on the graph: add an op, connect it by dragging, delete one; undo/redo;
// each edit changes the plan the way the planner says, and the JSON box follows.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openSite, openPage, closePage, waitForPlan, shownNumbers, editorText } from './page-helpers.mjs';

let site;
before(async () => {
  site = await openSite();
});
after(async () => {
  await site?.close();
});

const state = (page) =>
  page.evaluate(() => {
    const s = window.fusionPlayground.store.getState();
    return {
      ops: s.graph.ops.map((o) => o.name),
      kernels: s.plan.kernels_fused,
      groups: s.plan.groups.map((g) => g.ops.length),
    };
  });

// Clicks the drawn op with this index.
async function clickOp(page, op) {
  const p = await page.evaluate((i) => window.fusionPlayground.screenPosition(i), op);
  await page.mouse.click(p.x, p.y);
}

test('adding an op after the selected one fuses it into that kernel', { timeout: 60_000 }, async () => {
  const page = await openPage(site, '#example=bias-relu');
  let n = await waitForPlan(page);
  await clickOp(page, 3); // z = relu(y), fused with y
  await page.getByTestId('add-op').click();
  await page.getByTestId('add-kind').fill('neg');
  await page.getByTestId('add-name').fill('w');
  await page.getByTestId('add-submit').click();
  n = await waitForPlan(page, n + 1);
  const s = await state(page);
  assert.deepEqual(s.ops, ['x', 'bias', 'y', 'z', 'w']);
  assert.ok(s.groups.includes(3), 'y, z and the new neg form one group of three');
  assert.match(await editorText(page), /"name": "w", "kind": "neg", "inputs": \["z"\]/);

  await page.keyboard.press('Control+z');
  await waitForPlan(page, n + 1);
  assert.deepEqual((await state(page)).ops, ['x', 'bias', 'y', 'z']);
  await page.keyboard.press('Control+Shift+z');
  await waitForPlan(page, n + 2);
  assert.deepEqual((await state(page)).ops, ['x', 'bias', 'y', 'z', 'w']);
  assert.deepEqual(page.problems, []);
  await closePage(page);
});

test('deleting an op with the Delete key re-plans without it', { timeout: 60_000 }, async () => {
  const page = await openPage(site, '#example=elementwise-chain');
  const n = await waitForPlan(page);
  const before = await shownNumbers(page);
  await clickOp(page, 6); // out = cast(act)
  await page.locator('#graph').focus();
  await page.keyboard.press('Delete');
  await waitForPlan(page, n + 1);
  assert.deepEqual((await state(page)).ops, ['x', 'scale', 'shift', 'scaled', 'shifted', 'act']);
  // The kernel now ends at act (f32) instead of the f16 cast, so it writes more.
  assert.ok((await shownNumbers(page)).bytes_fused > before.bytes_fused);
  await closePage(page);
});

test('dragging from a producer to a consumer in connect mode adds the input', { timeout: 60_000 }, async () => {
  const page = await openPage(site, '#example=barrier-sandwich');
  const n = await waitForPlan(page);
  await page.getByTestId('connect-mode').click();
  const from = await page.evaluate(() => window.fusionPlayground.screenPosition(1)); // w
  const to = await page.evaluate(() => window.fusionPlayground.screenPosition(4)); // c
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move((from.x + to.x) / 2, (from.y + to.y) / 2, { steps: 8 });
  await page.mouse.move(to.x, to.y, { steps: 8 });
  await page.mouse.up();
  await waitForPlan(page, n + 1);
  assert.match(await editorText(page), /"name": "c", "kind": "add", "inputs": \["a", "m", "w"\]/);
  const edges = await page.evaluate(() =>
    window.fusionPlayground.store.getState().plan.edges.filter((e) => e.producer === 1 && e.consumer === 4),
  );
  assert.equal(edges.length, 1);
  assert.equal(edges[0].reason, 'source');
  await closePage(page);
});

test('selecting an unfused edge explains the planner’s reason; removing it re-plans', { timeout: 60_000 }, async () => {
  const page = await openPage(site, '#example=barrier-sandwich');
  const n = await waitForPlan(page);
  await page.locator('#reasons li[data-reason="cycle"]').click();
  assert.match(await page.getByTestId('edge-reason').textContent(), /a with c .*barrier/);
  await page.getByTestId('delete-edge').click();
  await waitForPlan(page, n + 1);
  const s = await page.evaluate(() =>
    window.fusionPlayground.store.getState().plan.edges.map((e) => `${e.producer}-${e.consumer}`),
  );
  assert.equal(s.includes('2-4'), false);
  await closePage(page);
});

test('a group row and the graph selection are linked', { timeout: 60_000 }, async () => {
  const page = await openPage(site, '#example=transformer-mlp');
  await waitForPlan(page);
  const row = page.locator('#groups-body tr').filter({ hasText: 'fc1_bias' });
  await row.click();
  assert.equal(await row.getAttribute('aria-selected'), 'true');
  assert.match(await page.getByTestId('selection-panel').textContent(), /Kernel \d+ — 2 ops/);
  await clickOp(page, 10); // residual
  assert.match(await page.getByTestId('selection-panel').textContent(), /residual/);
  assert.equal(await row.getAttribute('aria-selected'), 'false');
  await closePage(page);
});
