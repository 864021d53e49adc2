// page-compare.test.mjs — the compare view: two strategies side by side on one graph. Each side shows its
// plan's numbers as the native CLI gives them (--strategy S), both drawings place every op at the same
// spot, the list of differing edges is exactly the edges the two CLI plans decide differently (matmul + bias
// + relu: TVM-style rules fuse the epilogue, XLA-style ones do not), a differing edge clicked or picked with
// the keyboard is highlighted in both drawings, the pair rides in the link, and with named sizes each side's
// bytes card gives its plan's bytes formula. Screenshots go to build/screenshots/compare-*.png.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { planWithCli as cli } from '../wasm/native-cli.mjs';
import { encodeState } from '../../web/src/share/url-state.js';
import { openSite, openPage, closePage, waitForPlan, shot } from './page-helpers.mjs';
import { EPILOGUE } from './strategy-graphs.mjs';
import { PAIR } from './dims-graphs.mjs';
import { bytesFormula, hasNames } from '../../web/src/present/formula.js';

let site;
before(async () => {
  site = await openSite();
});
after(async () => {
  await site?.close();
});

const OPTIONS = { broadcast: true, resident_sources: false };
const link = (text, compare, options = {}) =>
  `#${encodeState({ example: null, text, options: { ...OPTIONS, ...options }, compare })}`;
const names = JSON.parse(EPILOGUE).ops.map((o) => o.name);

// Edges the two CLI plans decide differently (fused on one side only), as 'p-c' ids — computed here, not by
// the page's edge-diff.js.
function differingEdges(a, b) {
  const fusedIn = (plan) => new Map(plan.edges.map((e) => [`${e.producer}-${e.consumer}`, e.fused]));
  const fa = fusedIn(a);
  return [...fusedIn(b)]
    .filter(([id, fused]) => fa.get(id) !== fused)
    .map(([id]) => id)
    .sort();
}

const waitForCompare = (page, count = 1) =>
  page.waitForFunction(
    (n) => Number(document.querySelector('[data-testid="compare-pane"]')?.dataset.compareShown ?? 0) >= n,
    count,
    { timeout: 30_000 },
  );

// What one side shows: its cards' exact values (titles), its kernels, its drawn op positions.
const side = (page, which) =>
  page.evaluate((w) => {
    const el = document.querySelector(`[data-testid="compare-${w}"]`);
    const card = (k) => el.querySelector(`[data-metric="${k}"] .card-value`).title;
    return {
      title: el.querySelector('h3').textContent,
      bytes: card('bytes_fused'),
      time: card('time_fused_us'),
      kernels: card('kernels_fused'),
      labels: [...el.querySelectorAll('.compare-kernels .pattern')].map((p) => p.textContent),
      better: [...el.querySelectorAll('.card.better')].map((c) => c.dataset.metric),
    };
  }, which);
// Where each op is drawn on one side, and which edges carry a class ('differs', 'selected'), as 'p-c' ids.
const positions = (page, which) =>
  page.evaluate(
    (w) =>
      Object.fromEntries(
        window.fusionPlayground.compare
          .cy(w)
          .nodes('[op]')
          .map((n) => [n.id(), n.position()]),
      ),
    which,
  );
const edgeClasses = (page, which, cls) =>
  page.evaluate(
    ([w, c]) =>
      window.fusionPlayground.compare
        .cy(w)
        .edges(`.${c}`)
        .map((e) => e.id().slice(1))
        .sort(),
    [which, cls],
  );

test(
  'xla vs tvm on matmul + bias + relu: each side is the CLI’s plan; the differing edges are listed with both reasons',
  { timeout: 90_000 },
  async () => {
    const xla = cli(EPILOGUE, { strategy: 'xla' });
    const tvm = cli(EPILOGUE, { strategy: 'tvm' });
    const expected = differingEdges(xla, tvm);
    assert.ok(
      expected.includes('3-4'),
      'the matmul → bias edge differs (precondition: TVM fuses the epilogue, XLA does not)',
    );

    const page = await openPage(site, link(EPILOGUE, ['xla', 'tvm']));
    await waitForPlan(page);
    await waitForCompare(page);
    assert.equal(await page.getByTestId('graph').isVisible(), false, 'the compare view replaces the single plan');
    const [left, right] = [await side(page, 'left'), await side(page, 'right')];
    assert.deepEqual([left.title, right.title], ['XLA-style', 'TVM-style']);
    for (const [shown, plan] of [
      [left, xla],
      [right, tvm],
    ]) {
      assert.equal(shown.bytes.replace(/\D/g, ''), String(plan.bytes_fused));
      assert.equal(Number(shown.time.split(' ')[0]), plan.time_fused_us);
      assert.equal(shown.kernels, String(plan.kernels_fused));
      assert.deepEqual(shown.labels, plan.groups.map((g) => g.label).filter(Boolean));
    }
    assert.ok(right.labels.includes('matmul+bias+act'), 'TVM-style names the fused epilogue');
    if (tvm.bytes_fused < xla.bytes_fused)
      assert.ok(right.better.includes('bytes_fused') && !left.better.includes('bytes_fused'));

    // The list: exactly the edges decided differently, each with both sides in words.
    const items = page.locator('[data-testid="compare-diff"] > li[data-kind="decision"]');
    assert.deepEqual((await items.evaluateAll((lis) => lis.map((li) => li.dataset.edge))).sort(), expected);
    const mm = items.filter({ has: page.locator('code', { hasText: /^mm$/ }) }).first();
    const words = await mm.locator('p').allTextContents();
    assert.match(words[0], /^XLA-style: not fused \(barrier\)\. mm is a barrier for this strategy/);
    assert.match(words[1], /^TVM-style: fused\. Fused: mm → y stays in registers/);
    // Both drawings mark the same differing edges, and every op sits at the same spot in both.
    assert.deepEqual(await edgeClasses(page, 'left', 'differs'), await edgeClasses(page, 'right', 'differs'));
    assert.ok((await edgeClasses(page, 'left', 'differs')).includes('3-4'));
    const [pl, pr] = [await positions(page, 'left'), await positions(page, 'right')];
    assert.equal(Object.keys(pl).length, names.length);
    assert.deepEqual(pl, pr);

    // Clicking a differing edge highlights it in both drawings.
    await mm.click();
    assert.deepEqual(await edgeClasses(page, 'left', 'selected'), ['3-4']);
    assert.deepEqual(await edgeClasses(page, 'right', 'selected'), ['3-4']);
    assert.equal(await mm.getAttribute('aria-selected'), 'true');
    await shot(page, 'compare-xla-tvm');
    assert.deepEqual(page.problems, []);
    await closePage(page);
  },
);

test(
  'the compare view opens, changes sides and picks edges from the keyboard; the pair rides in the link',
  { timeout: 90_000 },
  async () => {
    const page = await openPage(site, link(EPILOGUE, undefined, { strategy: 'tvm' }));
    await waitForPlan(page);
    const opened = page.url();
    // Tab to Compare, Enter: seed against the chosen strategy.
    for (let i = 0; i < 30 && (await page.evaluate(() => document.activeElement.id)) !== 'compare-toggle'; i++)
      await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await waitForCompare(page);
    assert.equal(await page.getByTestId('compare-toggle').getAttribute('aria-pressed'), 'true');
    assert.deepEqual(await page.evaluate(() => window.fusionPlayground.store.getState().compare), ['seed', 'tvm']);
    await page.waitForFunction((before) => location.href !== before, opened); // the link now carries the pair
    const url = page.url();

    // The left picker, from the keyboard: seed → xla re-plans both sides.
    await page.getByTestId('compare-left-strategy').focus();
    await page.keyboard.press('ArrowDown');
    await waitForCompare(page, 2);
    assert.equal((await side(page, 'left')).title, 'XLA-style');
    const expected = differingEdges(cli(EPILOGUE, { strategy: 'xla' }), cli(EPILOGUE, { strategy: 'tvm' }));
    // The first differing edge gets focus with Tab, Enter selects it; ArrowDown moves to the next one.
    const first = page.locator('[data-testid="compare-diff"] > li[data-edge]').first();
    await first.focus();
    await page.keyboard.press('Enter');
    const id = await first.getAttribute('data-edge');
    assert.ok(expected.includes(id));
    assert.deepEqual(await edgeClasses(page, 'left', 'selected'), [id]);
    assert.deepEqual(await edgeClasses(page, 'right', 'selected'), [id]);
    if (expected.length > 1) {
      await page.keyboard.press('ArrowDown');
      assert.notEqual(await page.evaluate(() => document.activeElement.dataset.edge), id);
    }
    await shot(page, 'compare-keyboard');

    // The link opens the same comparison; Close returns to the single plan with its graph drawn.
    const again = await openPage(site, url.slice(site.server.url.length));
    await waitForCompare(again);
    assert.deepEqual(
      [(await side(again, 'left')).title, (await side(again, 'right')).title],
      ['Strict (seed)', 'TVM-style'],
    );
    await again.getByTestId('compare-close').click();
    assert.equal(await again.getByTestId('compare-pane').isVisible(), false);
    assert.equal(await again.getByTestId('graph').isVisible(), true);
    assert.equal(await again.evaluate(() => window.fusionPlayground.store.getState().compare), null);
    const zoomed = await again.evaluate(() => window.fusionPlayground.graphView.cy.extent().w > 0);
    assert.ok(zoomed, 'the single-plan graph is drawn again');
    for (const p of [page, again]) assert.deepEqual(p.problems, []);
    for (const p of [page, again]) await closePage(p);
  },
);

test('a pair the planner does not know is explained in the compare view, not drawn', { timeout: 60_000 }, async () => {
  const page = await openPage(site, link(EPILOGUE, ['seed', 'nosuch']));
  await waitForPlan(page);
  await page.getByTestId('compare-error').waitFor({ state: 'visible', timeout: 30_000 });
  assert.match(await page.getByTestId('compare-error').textContent(), /Not planned: .*nosuch/);
  assert.match(
    await page.getByTestId('compare-right-strategy').locator('option:checked').textContent(),
    /nosuch \(unknown\)/,
  );
  await closePage(page);
});

test('with named sizes, each side’s bytes card gives its plan’s bytes formula', { timeout: 60_000 }, async () => {
  const page = await openPage(site, link(PAIR, ['seed', 'tvm'], { dims: { N: 64 } }));
  await waitForCompare(page);
  for (const [which, strategy] of [
    ['left', 'seed'],
    ['right', 'tvm'],
  ]) {
    const plan = cli(PAIR, { strategy, dims: { N: 64 } });
    assert.ok(hasNames(plan.bytes_fused_formula), `${strategy}: a formula in N (precondition)`);
    const line = page
      .getByTestId(`compare-${which}`)
      .locator('[data-metric="bytes_fused"] [data-testid="compare-formula"]');
    assert.equal(await line.textContent(), `= ${bytesFormula(plan.bytes_fused_formula)}`, strategy);
    assert.equal(
      await page.getByTestId(`compare-${which}`).locator('[data-testid="compare-formula"]').count(),
      1,
      'only the bytes card has one',
    );
  }
  await shot(page, 'compare-formulas');
  assert.deepEqual(page.problems, []);
  await closePage(page);
});
