// page-rules.test.mjs — the rule that formed each kernel (plan group `rule`, the compiler behaviour the core's
// preset ran) reaches people: the selection panel has a "formed by" row for a selected kernel, the group table
// and the savings list carry it as a tooltip, hovering a kernel's frame puts it in the status line, and the
// compare view lists it under each kernel. A softmax typed into the JSON box and planned by Inductor (one
// persistent reduction); the same softmax under XLA, whose priority fusion copies sub and exp into both their
// consumers. Expected texts come from build/native/cli/fusion-plan on the same graph; screenshots go to
// build/screenshots/rules-*.png.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { planWithCli as cli } from '../wasm/native-cli.mjs';
import { encodeState } from '../../web/src/share/url-state.js';
import { mkdirSync } from 'node:fs';
import { openSite, openPage, closePage, waitForPlan, shot, root } from './page-helpers.mjs';
import { SOFTMAX } from './strategy-graphs.mjs';

let site;
before(async () => {
  site = await openSite();
});
after(async () => {
  await site?.close();
});

const OPTIONS = { broadcast: true, resident_sources: false };
const link = (text, options = {}, compare) =>
  `#${encodeState({ example: null, text, options: { ...OPTIONS, ...options }, ...(compare ? { compare } : {}) })}`;
const names = JSON.parse(SOFTMAX).ops.map((o) => o.name);

// Pastes a whole graph into the JSON box the way a person does: select all, paste.
async function pasteGraph(page, text) {
  await page.locator('.cm-content').click();
  await page.keyboard.press('Control+a');
  await page.keyboard.insertText(text);
}

// Selects kernel k from its group-table row; resolves to the selection panel's "formed by" row as
// [label, rule] ([] when the kernel has none).
async function selectKernel(page, k) {
  await page.locator(`#groups-body tr[data-group="${k}"]`).click();
  await page.waitForFunction(
    (id) => document.querySelector('#selection-body strong')?.textContent === `Kernel ${id}`,
    k,
  );
  const rule = page.getByTestId('group-rule');
  if (!(await rule.count())) return [];
  return rule.evaluate((el) => [el.previousElementSibling.textContent, el.textContent]);
}

// A screenshot of one part of the page (by test id) to build/screenshots/<name>.png.
async function partShot(page, testId, name) {
  mkdirSync(root('build/screenshots'), { recursive: true });
  await page.getByTestId(testId).screenshot({ path: root(`build/screenshots/${name}.png`) });
}

// The page's own plan (the store's), to check it is the CLI's.
const pagePlan = (page) => page.evaluate(() => window.fusionPlayground.store.getState().plan);

test(
  'Inductor on a softmax typed into the JSON box: the selected kernel says which scheduler rule formed it',
  { timeout: 90_000 },
  async () => {
    const plan = cli(SOFTMAX, { strategy: 'inductor' });
    const fused = plan.groups.filter((g) => g.ops.length > 1);
    assert.equal(fused.length, 1, 'Inductor fuses the softmax into one kernel (precondition)');
    const [k] = fused;
    assert.match(k.rule, /reduction/, 'the rule names the persistent reduction (precondition)');

    const page = await openPage(site, '');
    let n = await waitForPlan(page);
    await pasteGraph(page, SOFTMAX);
    n = await waitForPlan(page, n + 1);
    await page.getByTestId('opt-strategy').selectOption('inductor');
    await waitForPlan(page, n + 1);
    const shown = await pagePlan(page);
    assert.equal(shown.options.strategy, 'inductor');
    assert.deepEqual(
      shown.groups.map((g) => g.rule),
      plan.groups.map((g) => g.rule),
      "the page's plan has the CLI's rules",
    );

    assert.deepEqual(await selectKernel(page, k.id), ['formed by', k.rule]);
    assert.equal(
      await page.locator(`#groups-body tr[data-group="${k.id}"] td[data-rule]`).getAttribute('title'),
      `formed by: ${k.rule}`,
      'the group table row carries the rule as its tooltip',
    );
    assert.match(
      await page.locator(`#savings li[data-group="${k.id}"]`).getAttribute('title'),
      new RegExp(`\\nformed by: ${k.rule.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`),
      'so does its entry in the savings list',
    );
    // A single-op kernel has no rule line.
    const single = plan.groups.find((g) => g.kernel && g.ops.length === 1);
    if (single) assert.deepEqual(await selectKernel(page, single.id), []);
    await selectKernel(page, k.id);

    // Hovering the cluster's frame (inside its padding, where no op or edge is drawn) tells the rule in the
    // status line. The spot is found with Cytoscape's own hit test along the frame's left and right padding.
    const frame = await page.evaluate((id) => {
      const cy = window.fusionPlayground.graphView.cy;
      const g = cy.$id(`g${id}`);
      const box = g.renderedBoundingBox({ includeLabels: false });
      const r = cy.container().getBoundingClientRect();
      const { x: px, y: py } = cy.pan();
      for (let t = 0.1; t < 1; t += 0.05)
        for (const x of [box.x1 + 4, box.x2 - 4]) {
          const y = box.y1 + t * box.h;
          const hit = cy.renderer().findNearestElement((x - px) / cy.zoom(), (y - py) / cy.zoom(), true, false);
          if (hit === g) return { x: r.left + x, y: r.top + y };
        }
      return null;
    }, k.id);
    assert.ok(frame, 'a spot on the frame of the kernel (precondition)');
    await page.mouse.move(frame.x, frame.y);
    await page.waitForFunction(() => /formed by/.test(document.querySelector('[data-testid="status"]').textContent));
    assert.match(
      await page.getByTestId('status').textContent(),
      new RegExp(`^Kernel ${k.id} .*${k.ops.length} ops — formed by: `),
    );
    const corner = await page.getByTestId('graph').boundingBox(); // an empty spot of the drawing
    await page.mouse.move(corner.x + 3, corner.y + corner.height - 3, { steps: 4 });
    await page.waitForFunction(() => /^Planned/.test(document.querySelector('[data-testid="status"]').textContent));

    await partShot(page, 'selection-panel', 'rules-inductor-selection');
    await shot(page, 'rules-inductor');
    assert.deepEqual(page.problems, []);
    await closePage(page);
  },
);

test(
  'XLA priority fusion on a softmax: each kernel holding a duplicated producer says so, and the copies are marked',
  { timeout: 90_000 },
  async () => {
    const plan = cli(SOFTMAX, { strategy: 'xla' });
    const copying = plan.groups.filter((g) => g.recomputed.length > 0);
    assert.ok(copying.length >= 2, 'sub and exp go into both the sum and the division (precondition)');
    assert.ok(
      copying.every((g) => /duplicated/.test(g.rule)),
      'the rule names the duplication (precondition)',
    );
    const page = await openPage(site, link(SOFTMAX, { strategy: 'xla' }));
    await waitForPlan(page);
    for (const g of copying) {
      assert.deepEqual(await selectKernel(page, g.id), ['formed by', g.rule], `kernel ${g.id}`);
      const copies = await page
        .locator(`#groups-body tr[data-group="${g.id}"] code.recomputed`)
        .evaluateAll((cs) => cs.map((c) => c.textContent));
      assert.deepEqual(
        copies,
        g.recomputed.map((op) => `↻ ${names[op]}`),
        `kernel ${g.id} marks its copies`,
      );
      if (g === copying[0]) {
        await partShot(page, 'selection-panel', 'rules-xla-selection');
      }
    }
    // The max cannot go into all of its consumers: its edge says so in words.
    const refused = plan.edges.filter((e) => e.reason === 'consumers');
    assert.ok(refused.length > 0, 'XLA refuses an edge with reason consumers (precondition)');
    const words = await page.locator('#reasons li[data-reason="consumers"] p').allTextContents();
    assert.equal(words.length, refused.length);
    for (const w of words) assert.match(w, /fuses into all of its consumers \(a copy in each\) or into none/);
    await shot(page, 'rules-xla');
    assert.deepEqual(page.problems, []);
    await closePage(page);
  },
);

test('the compare view lists the rule under each kernel of both sides', { timeout: 90_000 }, async () => {
  const left = cli(SOFTMAX, { strategy: 'xla' });
  const right = cli(SOFTMAX, { strategy: 'inductor' });
  const page = await openPage(site, link(SOFTMAX, {}, ['xla', 'inductor']));
  await waitForPlan(page);
  await page.waitForFunction(
    () => Number(document.querySelector('[data-testid="compare-pane"]')?.dataset.compareShown ?? 0) >= 1,
    null,
    { timeout: 30_000 },
  );
  for (const [side, plan] of [
    ['left', left],
    ['right', right],
  ]) {
    const shown = await page
      .locator(`[data-testid="compare-${side}-kernels"] li`)
      .evaluateAll((lis) =>
        lis.map((li) => [Number(li.dataset.group), li.querySelector('[data-testid="kernel-rule"]')?.textContent ?? '']),
      );
    assert.deepEqual(
      shown,
      plan.groups.filter((g) => g.kernel).map((g) => [g.id, g.rule ? `formed by: ${g.rule}` : '']),
      side,
    );
  }
  await partShot(page, 'compare-pane', 'rules-compare');
  assert.deepEqual(page.problems, []);
  await closePage(page);
});
