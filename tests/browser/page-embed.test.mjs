// page-embed.test.mjs — embed mode: minimal chrome, numbers readable at 700 px without scrollbars,
// read-only unless ?editable, and the Embed button's snippet points at the same graph.
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
    await closePage(page);
  },
);

test('?embed&editable&json shows the JSON box and the edit tools', { timeout: 60_000 }, async () => {
  const page = await openPage(site, '?embed&editable&json#example=diamond', { width: 800, height: 520 });
  await waitForPlan(page);
  assert.equal(await page.getByTestId('json-editor').isVisible(), true);
  assert.equal(await page.getByTestId('add-op').isVisible(), true);
  await closePage(page);
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
  await closePage(page);
});

// The light ?embed (embed/embed.js): the element's SVG drawing, selectable by click and by keyboard, with the
// selection explained over the graph; &select=; the compare view with &compare=A,B; narrow widths.

// Every visible text's on-screen size in the embed (SVG labels at their drawn scale), and the page's overflow.
const readability = (page) =>
  page.evaluate(() => {
    const small = [];
    for (const el of document.querySelectorAll('.embed-bar *, [data-testid="totals"] *, .legend span, #status')) {
      const r = el.getBoundingClientRect();
      if (!r.width || !el.childNodes.length || ![...el.childNodes].some((n) => n.nodeType === 3 && n.data.trim()))
        continue;
      const size = parseFloat(getComputedStyle(el).fontSize);
      if (size < 11) small.push(`${el.id || el.className}: ${size}px`);
    }
    const svg = document.querySelector('#graph svg');
    const scale = svg.getScreenCTM().a;
    for (const t of svg.querySelectorAll('[data-op] text')) {
      const size = parseFloat(getComputedStyle(t).fontSize) * scale;
      if (size < 10.99) small.push(`op label ${t.textContent}: ${size.toFixed(1)}px`);
    }
    const d = document.documentElement;
    return { small, scrollX: d.scrollWidth > d.clientWidth, scrollY: d.scrollHeight > d.clientHeight };
  });

for (const width of [720, 390, 360]) {
  test(`the light ?embed at ${width} px: SVG, readable, no scrollbars, click selects and explains`, async () => {
    const page = await openPage(site, '?embed#example=barrier-sandwich', { width, height: 520 });
    await waitForPlan(page);
    assert.equal(await page.locator('#graph canvas').count(), 0, 'no Cytoscape');
    assert.ok((await page.locator('#graph svg [data-op]').count()) > 0);
    assert.equal(await page.evaluate(() => window.fusionPlayground.light), true);
    assert.deepEqual(await readability(page), { small: [], scrollX: false, scrollY: false });
    assert.equal(await page.getByTestId('selection-panel').isVisible(), false, 'no explanation before a selection');
    // A click on an unfused edge (a point of it on screen, not under a box) explains it in the planner's words.
    const at = await page.evaluate(() => {
      const wrap = document.getElementById('graph').getBoundingClientRect();
      for (const g of document.querySelectorAll('#graph svg [data-edge]:not(.fused)')) {
        const path = g.querySelector('path.hit');
        const len = path.getTotalLength();
        for (let k = 1; k < 20; k++) {
          const p = path.getPointAtLength((len * k) / 20).matrixTransform(path.getScreenCTM());
          const inside = p.x > wrap.left && p.x < wrap.right && p.y > wrap.top && p.y < wrap.bottom;
          if (inside && document.elementFromPoint(p.x, p.y)?.closest('[data-edge]') === g)
            return { x: p.x, y: p.y, id: g.dataset.edge };
        }
      }
      return null;
    });
    assert.ok(at, 'an unfused edge is on screen');
    await page.mouse.click(at.x, at.y);
    await page.getByTestId('edge-reason').waitFor();
    assert.match(await page.getByTestId('edge-reason').textContent(), /\w/);
    assert.ok((await page.locator(`[data-edge="${at.id}"]`).getAttribute('class')).includes('selected'));
    await shot(page, `embed-light-${width}`);
    // Escape closes it; the close button too.
    await page.keyboard.press('Escape');
    await page.getByTestId('selection-panel').waitFor({ state: 'hidden' });
    assert.deepEqual(page.problems, []);
    await closePage(page);
  });
}

test('the light ?embed selects by keyboard: Tab to an op or kernel, Enter explains it', async () => {
  const page = await openPage(site, '?embed#example=transformer-mlp', { width: 720, height: 480 });
  await waitForPlan(page);
  await page.locator('#graph svg [data-group]').first().focus();
  await page.keyboard.press('Enter');
  await page.getByTestId('selection-panel').waitFor();
  // the selection panel's code loads with the first selection, then explains it
  await page.waitForFunction(() => /Kernel \d+/.test(document.getElementById('selection-body').textContent));
  assert.match(await page.getByTestId('selection-panel').textContent(), /Kernel \d+/);
  await page.keyboard.press('Tab'); // the next drawn element
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => /→|op|Kernel/.test(document.getElementById('selection-body').textContent));
  const focused = await page.evaluate(() => document.activeElement.closest('#graph svg') !== null);
  assert.ok(focused, 'focus stays on the drawing');
  assert.deepEqual(page.problems, []);
  await closePage(page);
});

test('&select= opens an edge, op or kernel explained; a bad value says so and the plan is shown', async () => {
  const cases = [
    ['edge:fc1>fc1_bias', /fc1 → fc1_bias/],
    ['op:act', /act/],
    ['kernel:6', /Kernel 6/],
  ];
  for (const [select, text] of cases) {
    const page = await openPage(site, `?embed&select=${encodeURIComponent(select)}#example=transformer-mlp`, {
      width: 390,
      height: 560,
    });
    await waitForPlan(page);
    assert.ok(await page.getByTestId('selection-panel').isVisible(), select);
    assert.match(await page.locator('#selection-body').textContent(), text);
    assert.equal(await page.locator('#graph svg .selected').count(), 1, `${select} is marked on the drawing`);
    assert.equal(await page.getByTestId('notice').isVisible(), false);
    if (select.startsWith('edge')) await shot(page, 'embed-select-390');
    assert.deepEqual(page.problems, []);
    await closePage(page);
  }
  for (const [select, message] of [
    ['op:nope', /no op called “nope”/],
    ['edge:fc1', /one '>' between two op names/],
    ['kernel:99', /no kernel 99/],
    ['fc1', /select=op:NAME/],
  ]) {
    const page = await openPage(site, `?embed&select=${encodeURIComponent(select)}#example=transformer-mlp`, {
      width: 720,
      height: 480,
    });
    await waitForPlan(page);
    assert.match(await page.getByTestId('notice').textContent(), message);
    assert.match(await page.getByTestId('kernels').textContent(), /6 → 4/, 'the plan is still shown');
    assert.deepEqual(page.problems, []);
    await closePage(page);
  }
});

test('?embed&compare=xla,tvm shows both strategies side by side; a bad pair says so', async () => {
  const page = await openPage(site, '?embed&compare=xla,tvm#example=transformer-mlp', { width: 720, height: 560 });
  await page.locator('.compare-side').nth(1).waitFor({ timeout: 30_000 });
  const sides = await page.locator('.compare-side').evaluateAll((els) => els.map((e) => e.getBoundingClientRect()));
  assert.equal(sides.length, 2);
  assert.ok(sides[1].left >= sides[0].right - 1, 'side by side');
  await page.waitForFunction(() => document.querySelectorAll('.compare-side .card-value').length > 0);
  await shot(page, 'embed-compare-720');
  assert.deepEqual(page.problems, []);
  await closePage(page);
  const bad = await openPage(site, '?embed&compare=xla#example=diamond', { width: 720, height: 480 });
  await waitForPlan(bad);
  assert.match(await bad.getByTestId('notice').textContent(), /not two strategy names/);
  await closePage(bad);
});

// The labels drawn by Cytoscape (graph-view.js): each visible element's font size × the zoom, and the collapsed
// boxes' layer (box-labels.js, 11 px × the zoom), on screen; in the page (run in the browser).
const cytoscapeLabelsSmall = (cy, where) => {
  const small = [];
  const zoom = cy.zoom();
  if (11 * zoom < 10.99) small.push(`${where}: box labels at ${(11 * zoom).toFixed(1)}px`);
  cy.elements().forEach((e) => {
    if (!e.visible() || !e.style('label')) return;
    const size = parseFloat(e.style('font-size')) * zoom;
    if (size < 10.99) small.push(`${where} ${e.id()}: ${size.toFixed(1)}px`);
  });
  return small;
};

// Every rendered text of the page (DOM text, select boxes) under 11 px, and the page's scrollbars.
const domReadability = () => {
  const small = [];
  for (const el of document.querySelectorAll('body *')) {
    if (!el.checkVisibility() || el.closest('.visually-hidden')) continue;
    const r = el.getBoundingClientRect();
    const text = el.tagName === 'SELECT' || [...el.childNodes].some((n) => n.nodeType === 3 && n.data.trim());
    if (!r.width || !r.height || !text) continue;
    const size = parseFloat(getComputedStyle(el).fontSize);
    if (size < 10.99) small.push(`${el.tagName.toLowerCase()}.${el.className}: ${size}px`);
  }
  const d = document.scrollingElement;
  return { small, scrollX: d.scrollWidth > innerWidth, scrollY: d.scrollHeight > innerHeight };
};

// issue 17: the compare view in an embed keeps its drawings' labels ≥ 11 px on screen (panned, not shrunk),
// every text ≥ 11 px, nothing cut off in its head, and no scrollbars, at 720 (side by side), 390 and 360 px.
for (const width of [720, 390, 360])
  for (const theme of ['light', 'dark'])
    test(`?embed&compare=xla,tvm at ${width} px, ${theme}: labels ≥ 11 px on screen, no scrollbars`, async () => {
      const height = width === 720 ? 560 : 700;
      const page = await openPage(site, `?embed&compare=xla,tvm&theme=${theme}#example=transformer-mlp`, {
        width,
        height,
      });
      await page.waitForFunction(
        () => Number(document.querySelector('[data-testid="compare-pane"]')?.dataset.compareShown) > 0,
        null,
        { timeout: 30_000 },
      );
      assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), theme);
      const cy = await page.evaluate(`(() => {
        const small = ${cytoscapeLabelsSmall.toString()};
        const cy = (side) => window.fusionPlayground.compare.cy(side);
        return {
          small: [...small(cy('left'), 'left'), ...small(cy('right'), 'right')],
          zooms: [cy('left').zoom(), cy('right').zoom()],
          labelled: cy('left').elements().filter((e) => e.visible() && e.style('label')).length,
        };
      })()`);
      assert.deepEqual(cy.small, [], 'every Cytoscape label ≥ 11 px on screen');
      assert.ok(cy.labelled > 10, 'the drawing has labels');
      assert.equal(cy.zooms[0], cy.zooms[1], 'the two drawings move together');
      assert.deepEqual(await page.evaluate(domReadability), { small: [], scrollX: false, scrollY: false });
      // The head's pickers and buttons are inside the pane (it wraps rather than cut them off); the hidden
      // Strategies button (greedy vs optimal only) stays hidden.
      const cut = await page.evaluate(() => {
        const pane = document.querySelector('[data-testid="compare-pane"]').getBoundingClientRect();
        return [...document.querySelectorAll('.compare-head select, .compare-head button')]
          .filter((b) => b.checkVisibility())
          .filter((b) => b.getBoundingClientRect().right > pane.right + 0.5)
          .map((b) => b.textContent || b.id);
      });
      assert.deepEqual(cut, []);
      assert.equal(await page.getByTestId('compare-strategies').isVisible(), false);
      // Side by side from 600 px, stacked below.
      const sides = await page.locator('.compare-side').evaluateAll((els) => els.map((e) => e.getBoundingClientRect()));
      if (width >= 600) assert.ok(sides[1].left >= sides[0].right - 1, 'side by side');
      else assert.ok(sides[1].top >= sides[0].bottom - 1, 'stacked');
      if (width !== 360) await shot(page, `embed-compare-${width}-${theme}`);
      assert.deepEqual(page.problems, []);
      await closePage(page);
    });

// issue 17: the Cytoscape drawing (a graph of more than 50 boxes) by keyboard only — Tab reaches it, arrow
// keys move through kernels, ops and edges (announced), Enter explains, Escape closes; its labels ≥ 11 px.
test('the light ?embed of a graph over 50 ops: keyboard-only selection explains an op and an edge', async () => {
  const page = await openPage(site, '?embed#example=resnet18', { width: 720, height: 520 });
  await waitForPlan(page);
  assert.ok((await page.locator('#graph canvas').count()) > 0, 'Cytoscape');
  const small = await page.evaluate(
    `(${cytoscapeLabelsSmall.toString()})(window.fusionPlayground.drawing().cy, 'embed')`,
  );
  assert.deepEqual(small, [], 'every label ≥ 11 px on screen');
  assert.deepEqual((await page.evaluate(domReadability)).small, []);
  for (let k = 0; k < 20 && (await page.evaluate(() => document.activeElement?.id)) !== 'graph'; k++)
    await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'graph', 'Tab reaches the drawing');
  const live = page.getByTestId('graph-keys-live');
  await page.keyboard.press('ArrowDown');
  assert.match(await live.textContent(), /^(Op|Kernel) .+, 1 of \d+ — Enter explains it$/);
  await page.keyboard.press('Enter');
  await page.getByTestId('selection-panel').waitFor();
  await page.waitForFunction(() => /\w/.test(document.getElementById('selection-body').textContent));
  assert.ok(await page.evaluate(() => window.fusionPlayground.state().selection !== null));
  // On to an edge that was not fused: Enter explains why, in the planner's words.
  let text = '';
  for (let k = 0; k < 400 && !/^Edge .* not fused/.test(text); k++) {
    await page.keyboard.press('ArrowDown');
    text = await live.textContent();
  }
  assert.match(text, /^Edge .+ → .+, not fused/);
  await page.keyboard.press('Enter');
  await page.getByTestId('edge-reason').waitFor();
  assert.match(await page.getByTestId('edge-reason').textContent(), /\w/);
  assert.equal((await page.evaluate(() => window.fusionPlayground.state().selection)).kind, 'edge');
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'graph', 'focus stays on the drawing');
  await shot(page, 'embed-keyboard-cytoscape');
  await page.keyboard.press('Escape');
  await page.getByTestId('selection-panel').waitFor({ state: 'hidden' });
  assert.equal(await page.evaluate(() => window.fusionPlayground.state().selection), null);
  assert.deepEqual(page.problems, []);
  await closePage(page);
});

test("?embed&compare: arrow keys on a drawing show an edge's reason, Enter selects it", async () => {
  const page = await openPage(site, '?embed&compare=xla,tvm#example=transformer-mlp', { width: 720, height: 560 });
  await page.waitForFunction(
    () => Number(document.querySelector('[data-testid="compare-pane"]')?.dataset.compareShown) > 0,
    null,
    { timeout: 30_000 },
  );
  await page.getByTestId('compare-left-graph').focus();
  let text = '';
  for (let k = 0; k < 60 && !/^Edge .* not fused/.test(text); k++) {
    await page.keyboard.press('ArrowDown');
    text = await page.getByTestId('graph-keys-live').first().textContent();
  }
  assert.match(text, /^Edge .+ → .+, not fused/);
  const status = await page.locator('[data-testid="compare-left"] .compare-status').textContent();
  assert.doesNotMatch(status, /orange halo/, "the edge's reason is shown");
  await page.keyboard.press('Enter');
  const sel = await page.evaluate(() => window.fusionPlayground.store.getState().selection);
  assert.equal(sel?.kind, 'edge');
  assert.deepEqual(page.problems, []);
  await closePage(page);
});

// Plan search is the full module's: an embed link with &optimal runs the page's code in embed mode, which plans
// greedily, then shows the searched plan (the greedy trap: 100,712,448 B greedy, 67,162,112 B optimal).
test('?embed of a link with &optimal shows the searched plan (the page in embed mode)', async () => {
  const page = await openPage(site, '?embed#example=greedy-trap&optimal', { width: 720, height: 480 });
  await page.waitForFunction(() => window.fusionPlayground?.store?.getState().search?.status === 'done', null, {
    timeout: 30_000,
  });
  assert.equal(await page.evaluate(() => window.fusionPlayground.light), undefined, 'not the light embed');
  await page.waitForFunction(() => window.fusionPlayground.store.getState().plan?.bytes_fused === 67162112);
  assert.deepEqual(page.problems, []);
  await closePage(page);
});
