// page-search.test.mjs — plan search on the page (docs/design.md §17, docs/playground.md): the Optimal switch
// beside the strategy picker, the search on its own worker with the greedy plan shown meanwhile, its
// certificate, cancelling it, a strategy the planner cannot search, greedy vs optimal in the compare view, the
// gallery's greedy trap, the switch in share links, and a tvm search, whose objective is the estimated time
// (its certificate, its time row first, its bound in µs, the compare view and its link). Expected numbers come
// from the WASM module run here in Node (byte for byte the CLI's, tests/wasm/search.test.mjs). Screenshots go to
// build/screenshots/search-*.png.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { loadFusion } from '../../wasm/fusion.mjs';
import { encodeState } from '../../web/src/share/url-state.js';
import { formatBytes, formatTime } from '../../web/src/present/format.js';
import { openSite, openPage, closePage, waitForPlan, shownNumbers, shot, root } from './page-helpers.mjs';
import { slowSearchGraph } from './slow-search-graph.mjs';

let site;
let fusion;
before(async () => {
  site = await openSite();
  fusion = await loadFusion();
});
after(async () => {
  await site?.close();
});

const TRAP = readFileSync(root('examples/greedy-trap.json'), 'utf8');
const OPTIONS = { broadcast: true, resident_sources: false };
const state = (page) =>
  page.evaluate(() => {
    const s = window.fusionPlayground.store.getState();
    return {
      optimal: s.optimal,
      search: s.search && { ...s.search, greedy: null, result: null },
      bytes: s.plan?.bytes_fused,
    };
  });
const status = (page) => page.getByTestId('search-status').textContent();
const waitForStatus = (page, pattern, timeout = 30_000) =>
  page.waitForFunction(
    (src) => new RegExp(src).test(document.querySelector('[data-testid="search-status"]')?.textContent ?? ''),
    pattern.source,
    { timeout },
  );

test(
  'Optimal on the greedy trap: fewer bytes than greedy, certified optimal; off again shows greedy',
  { timeout: 90_000 },
  async () => {
    const greedy = fusion.plan(TRAP);
    const optimal = fusion.plan(TRAP, { search: 'optimal' });
    assert.ok(optimal.bytes_fused < greedy.bytes_fused, 'precondition: greedy misses the optimum on this graph');

    const page = await openPage(site, '#example=greedy-trap');
    await waitForPlan(page);
    assert.equal((await shownNumbers(page)).bytes_fused, greedy.bytes_fused);
    assert.equal(await page.getByTestId('search-panel').isVisible(), false);
    const box = page.getByTestId('opt-optimal');
    // The switch sits right after the strategy picker, in the top bar.
    assert.equal(
      await page.evaluate(
        () => document.getElementById('opt-strategy').closest('label').nextElementSibling.querySelector('input').id,
      ),
      'opt-optimal',
    );
    await box.focus();
    await page.keyboard.press('Space'); // the switch works from the keyboard
    await waitForStatus(page, /^Optimal, proven in \d+ ms$/);
    assert.equal((await shownNumbers(page)).bytes_fused, optimal.bytes_fused);
    assert.equal(await page.getByTestId('search-certificate').textContent(), await status(page));
    const cells = await page
      .getByTestId('search-numbers')
      .locator('tr[data-metric="bytes_fused"] td')
      .allTextContents();
    assert.equal(cells.length, 2);
    assert.notEqual(cells[0], cells[1], 'greedy and optimal bytes differ on screen');
    assert.match(
      await page.getByTestId('search-panel').textContent(),
      new RegExp(`${optimal.search.nodes} nodes searched`),
    );
    await page.waitForFunction(() => /&optimal\b/.test(location.hash));
    await shot(page, 'search-greedy-trap');

    await box.uncheck();
    await page.waitForFunction(
      (b) => window.fusionPlayground.store.getState().plan.bytes_fused === b,
      greedy.bytes_fused,
    );
    assert.equal((await shownNumbers(page)).bytes_fused, greedy.bytes_fused);
    assert.equal(await page.getByTestId('search-panel').isVisible(), false);
    await page.waitForFunction(() => !/optimal/.test(location.hash));
    assert.deepEqual(page.problems, []);
    await closePage(page);
  },
);

test(
  'the gallery opens the greedy trap with Optimal on; Greedy vs optimal lists the edges and selects one',
  { timeout: 90_000 },
  async () => {
    const greedy = fusion.plan(TRAP);
    const optimal = fusion.plan(TRAP, { search: 'optimal' });
    const differ = greedy.edges
      .filter((e, i) => e.fused !== optimal.edges[i].fused)
      .map((e) => `${e.producer}-${e.consumer}`);
    assert.deepEqual(differ, ['2-4', '4-5'], 'precondition: greedy fuses scale → scaled, optimal scaled → out');

    const page = await openPage(site);
    await waitForPlan(page);
    await page.getByText('Examples').click();
    await page.getByTestId('example-greedy-trap').click();
    await waitForStatus(page, /^Optimal, proven in/);
    assert.equal(await page.getByTestId('opt-optimal').isChecked(), true);
    await page.getByTestId('search-compare').click();
    await page.waitForFunction(
      () => Number(document.querySelector('[data-testid="compare-pane"]')?.dataset.compareShown ?? 0) >= 1,
    );
    assert.equal(await page.locator('#compare-title').textContent(), 'Greedy vs optimal');
    const card = (side) =>
      page
        .locator(`[data-testid="compare-${side}-numbers"] [data-metric="bytes_fused"] .card-value`)
        .getAttribute('title');
    assert.equal((await card('left')).replace(/\D/g, ''), String(greedy.bytes_fused));
    assert.equal((await card('right')).replace(/\D/g, ''), String(optimal.bytes_fused));
    assert.match(await page.getByTestId('compare-note').textContent(), /^Optimal, proven in \d+ ms$/);
    const items = page.locator('[data-testid="search-diff"] > li[data-edge]');
    assert.deepEqual(await items.evaluateAll((lis) => lis.map((li) => li.dataset.edge)), differ);
    const first = await items.first().locator('p').allTextContents();
    assert.match(first[0], /^Greedy: fused · optimal: not fused$/);
    // Each edge shows the planner's own why (search.differences, in edge order), as the core wrote it.
    assert.deepEqual(
      optimal.search.differences.map((d) => `${d.producer}-${d.consumer}`),
      differ,
      'the core lists the same edges',
    );
    const shownWhy = await items.evaluateAll((lis) => lis.map((li) => li.querySelectorAll('p')[1]?.textContent));
    assert.deepEqual(
      shownWhy,
      optimal.search.differences.map((d) => d.why),
    );
    assert.match(shownWhy[0], /^greedy fused scale → scaled/);
    await items.nth(1).click();
    assert.deepEqual(await page.evaluate(() => window.fusionPlayground.store.getState().selection), {
      kind: 'edge',
      id: { producer: 4, consumer: 5 },
    });
    assert.deepEqual(
      await page.evaluate(() =>
        window.fusionPlayground.compare
          .cy('left')
          .edges('.selected')
          .map((e) => e.id()),
      ),
      ['e4-5'],
    );
    await page.waitForFunction(() => /compare=search/.test(location.hash));
    await shot(page, 'search-compare');

    // A planner that explains its choices (search.differences, docs/design.md §17): the list shows each why, and
    // how many it left out. The answer is handed to the page as the search worker would.
    const why = 'merging scale into scaled first put the matmul score between scaled and out';
    const shown = await page.evaluate((w) => {
      const { store } = window.fusionPlayground;
      const s = store.getState();
      const { text, options, optimal: budget } = s;
      const result = structuredClone(s.search.result);
      result.search.differences = [{ producer: 2, consumer: 4, greedy: 'fused', optimal: 'cut', why: w }];
      result.search.differences_total = 2;
      store.dispatch({ type: 'search-started', text, options, budget, started: performance.now() });
      store.dispatch({ type: 'search-result', text, options, budget, result, ms: 5 });
      return [...document.querySelectorAll('[data-testid="search-diff"] > li')].map((li) => li.textContent);
    }, why);
    assert.equal(shown.length, 2);
    assert.equal(shown[0], `scale → scaledGreedy: fused · optimal: not fused${why}`);
    assert.equal(shown[1], '… and 1 more edge decided differently.');
    await shot(page, 'search-compare-why');
    assert.deepEqual(page.problems, []);
    await closePage(page);
  },
);

test(
  'a long search runs on its own worker with the greedy plan shown, the clock ticking, and cancels',
  { timeout: 120_000 },
  async () => {
    const text = slowSearchGraph();
    const greedy = fusion.plan(text);
    const page = await openPage(
      site,
      `#${encodeState({ example: null, text, options: OPTIONS, optimal: 20_000_000 })}`,
    );
    await waitForPlan(page);
    await waitForStatus(page, /^Searching for the optimal plan… \d/);
    assert.match(
      await page.getByTestId('search-panel').textContent(),
      /budget 20,000,000 nodes; the greedy plan is shown meanwhile/,
    );
    assert.equal((await shownNumbers(page)).bytes_fused, greedy.bytes_fused, 'the greedy plan stays shown');
    // The clock ticks while the page answers (the search holds its own worker, not the page).
    await page.waitForFunction(() =>
      /^\d+\.\d s$/.test(document.querySelector('[data-testid="search-clock"]').textContent),
    );
    await shot(page, 'search-running');
    // The planner worker answers greedy plans while the search runs on its own worker.
    const meanwhile = await page.evaluate(async (t) => {
      const { planner, store } = window.fusionPlayground;
      const result = await planner.plan(t, { broadcast: true, resident_sources: false });
      return { bytes: result.bytes_fused, status: store.getState().search.status };
    }, TRAP);
    assert.deepEqual(meanwhile, { bytes: fusion.plan(TRAP).bytes_fused, status: 'running' });
    // The planner worker still answers greedy plans meanwhile: a new option is planned (and the search restarts).
    const drawn = await waitForPlan(page);
    await page.locator('#options-menu summary').click(); // Resident sources lives in the Options menu
    await page.getByTestId('opt-resident').check();
    await page.keyboard.press('Escape');
    await waitForPlan(page, drawn + 1);
    assert.equal((await shownNumbers(page)).bytes_fused, fusion.plan(text, { resident_sources: true }).bytes_fused);
    await waitForStatus(page, /^Searching/);
    await page.getByTestId('search-cancel').click();
    await waitForStatus(page, /^Search cancelled — the greedy plan is shown\.$/);
    assert.equal((await state(page)).search.status, 'cancelled');
    assert.equal((await shownNumbers(page)).bytes_fused, fusion.plan(text, { resident_sources: true }).bytes_fused);
    await shot(page, 'search-cancelled');
    // Searching again starts a fresh worker; a small budget answers with a bounded certificate.
    await page.getByTestId('search-budget').selectOption('200000');
    const expected = fusion.plan(text, { resident_sources: true, search: { mode: 'optimal', budget_nodes: 200_000 } });
    assert.equal(expected.search.status, 'bounded', 'precondition: 200,000 nodes do not finish this search');
    await waitForStatus(page, /^Within [\d.<> ]+ % of optimal after [\d.]+ m?s \(bounded\)$/, 60_000);
    assert.equal((await shownNumbers(page)).bytes_fused, expected.bytes_fused);
    await shot(page, 'search-bounded');
    assert.deepEqual(page.problems, []);
    await closePage(page);
  },
);

test(
  'xla-classic is searched too: the page shows its certificate in time words and a plan no slower than greedy',
  { timeout: 90_000 },
  async () => {
    const searched = fusion.plan(TRAP, { strategy: 'xla-classic', search: { mode: 'optimal', budget_nodes: 200_000 } });
    assert.equal(searched.search.objective, 'time', 'precondition: the planner searches xla-classic for time');
    const page = await openPage(site, '#example=greedy-trap&strategy=xla-classic&optimal');
    await waitForPlan(page);
    await waitForStatus(
      page,
      /^(Fastest plan, proven in [\d.]+ m?s|Within [\d.<> ]+ % of the fastest after [\d.]+ m?s \(bounded\))$/,
    );
    assert.ok(searched.time_fused_us <= fusion.plan(TRAP, { strategy: 'xla-classic' }).time_fused_us);
    await shot(page, 'search-xla-classic');
    assert.deepEqual(page.problems, []);
    await closePage(page);
  },
);

// The gallery example a tvm search is shown on (FuseOps' grouping of the greedy trap is not the fastest), and the
// rows of its numbers table as the page writes them.
const TVM_EXAMPLE = 'greedy-trap';
const tvmText = () => readFileSync(root(`examples/${TVM_EXAMPLE}.json`), 'utf8');
const numberRows = (page) =>
  page
    .getByTestId('search-numbers')
    .locator('tr[data-metric]')
    .evaluateAll((trs) =>
      trs.map((tr) => [
        tr.dataset.metric,
        tr.querySelector('th').textContent,
        ...[...tr.querySelectorAll('td')].map((td) => td.textContent),
      ]),
    );

test("an xla search certifies the fastest plan of XLA's fusion space in the panel", { timeout: 90_000 }, async () => {
  const text = readFileSync(root('examples/multi-consumer.json'), 'utf8');
  const greedy = fusion.plan(text, { strategy: 'xla' });
  const optimal = fusion.plan(text, { strategy: 'xla', search: 'optimal' });
  assert.equal(optimal.ok, true, `the planner searches xla: ${optimal.error?.message}`);
  assert.equal(optimal.search.objective, 'time');
  assert.equal(optimal.search.status, 'optimal');
  const page = await openPage(site, '#example=multi-consumer&strategy=xla');
  await waitForPlan(page);
  await page.getByTestId('opt-optimal').focus();
  await page.keyboard.press('Space'); // by keyboard
  await waitForStatus(page, /^Fastest plan, proven in \d+ ms$/);
  assert.equal((await shownNumbers(page)).bytes_fused, optimal.bytes_fused);
  assert.deepEqual((await numberRows(page))[0], [
    'time_fused_us',
    'Estimated time (searched)',
    formatTime(greedy.time_fused_us),
    formatTime(optimal.time_fused_us),
  ]);
  await page.waitForFunction(() => /strategy=xla/.test(location.hash) && /&optimal\b/.test(location.hash));
  await shot(page, 'search-xla');
  assert.deepEqual(page.problems, []);
  await closePage(page);
});

test(
  'a tvm search minimises the estimated time: fastest plan certified, time first, compared, and its link restores it',
  { timeout: 120_000 },
  async () => {
    const text = tvmText();
    const greedy = fusion.plan(text, { strategy: 'tvm' });
    const optimal = fusion.plan(text, { strategy: 'tvm', search: 'optimal' });
    assert.equal(optimal.ok, true, `the planner searches tvm: ${optimal.error?.message}`);
    const s = optimal.search;
    assert.equal(s.objective, 'time');
    assert.equal(s.lower_bound, undefined, 'a time search has no bytes bound');
    assert.equal(s.greedy_time_fused_us, greedy.time_fused_us);
    assert.ok(optimal.time_fused_us < greedy.time_fused_us, 'precondition: FuseOps misses the fastest plan here');
    assert.ok(s.differences.length > 0, 'precondition: the planner lists where FuseOps went another way');

    const page = await openPage(site, `#example=${TVM_EXAMPLE}&strategy=tvm`);
    await waitForPlan(page);
    assert.equal((await shownNumbers(page)).bytes_fused, greedy.bytes_fused);
    await page.getByTestId('opt-optimal').click(); // by mouse
    const certificate =
      s.status === 'optimal' ? /^Fastest plan, proven in \d+ ms$/ : /^Within .* of the fastest after .* \(bounded\)$/;
    await waitForStatus(page, certificate);
    assert.equal((await shownNumbers(page)).bytes_fused, optimal.bytes_fused);
    assert.deepEqual(await numberRows(page), [
      [
        'time_fused_us',
        'Estimated time (searched)',
        formatTime(greedy.time_fused_us),
        formatTime(optimal.time_fused_us),
      ],
      ['bytes_fused', 'Bytes moved', formatBytes(greedy.bytes_fused), formatBytes(optimal.bytes_fused)],
      ['kernels_fused', 'Kernels', String(greedy.kernels_fused), String(optimal.kernels_fused)],
    ]);
    const nodes = await page.getByTestId('search-nodes').textContent();
    assert.equal(
      nodes,
      `${s.nodes.toLocaleString('en-US')} nodes searched; no plan is faster than ${formatTime(s.lower_bound_us).replace(' ', '\u00a0')}`,
    );
    assert.doesNotMatch(await page.getByTestId('search-panel').textContent(), /fewer than|of optimal/);
    await page.waitForFunction(() => /strategy=tvm/.test(location.hash) && /&optimal\b/.test(location.hash));
    await shot(page, 'search-tvm');

    await page.getByTestId('search-compare').click();
    await page.waitForFunction(
      () => Number(document.querySelector('[data-testid="compare-pane"]')?.dataset.compareShown ?? 0) >= 1,
    );
    assert.match(await page.getByTestId('compare-note').textContent(), certificate);
    const card = (side, metric) =>
      page
        .locator(`[data-testid="compare-${side}-numbers"] [data-metric="${metric}"] .card-value`)
        .getAttribute('title');
    assert.equal(await card('left', 'time_fused_us'), `${greedy.time_fused_us} µs`);
    assert.equal(await card('right', 'time_fused_us'), `${optimal.time_fused_us} µs`);
    assert.equal((await card('right', 'bytes_fused')).replace(/\D/g, ''), String(optimal.bytes_fused));
    const items = page.locator('[data-testid="search-diff"] > li[data-edge]');
    assert.deepEqual(
      await items.evaluateAll((lis) => lis.map((li) => li.querySelectorAll('p')[1]?.textContent)),
      s.differences.map((d) => d.why),
      'each edge with the planner’s own why (FuseOps’ choice)',
    );
    await page.waitForFunction(() => /compare=search/.test(location.hash));
    await shot(page, 'search-tvm-compare');

    // The link as the page wrote it opens the same search, with the strategy and greedy vs optimal.
    const link = await page.evaluate(() => location.hash);
    assert.match(link, /strategy=tvm/);
    await closePage(page);
    const again = await openPage(site, link);
    await waitForPlan(again);
    await waitForStatus(again, certificate);
    assert.equal(await again.locator('#opt-strategy').inputValue(), 'tvm');
    assert.equal(await again.getByTestId('opt-optimal').isChecked(), true);
    assert.equal((await shownNumbers(again)).bytes_fused, optimal.bytes_fused);
    await again.waitForFunction(
      () => Number(document.querySelector('[data-testid="compare-pane"]')?.dataset.compareShown ?? 0) >= 1,
    );
    assert.match(await again.getByTestId('compare-note').textContent(), certificate);
    assert.deepEqual(page.problems, []);
    assert.deepEqual(again.problems, []);
    await closePage(again);
  },
);

test(
  "an inductor search: the scheduler's grouping certified the fastest in estimated time, time row first",
  { timeout: 90_000 },
  async () => {
    const example = 'transformer-mlp';
    const text = readFileSync(root(`examples/${example}.json`), 'utf8');
    const greedy = fusion.plan(text, { strategy: 'inductor' });
    const optimal = fusion.plan(text, { strategy: 'inductor', search: 'optimal' });
    assert.equal(optimal.ok, true, `the planner searches inductor: ${optimal.error?.message}`);
    assert.equal(optimal.search.objective, 'time');
    assert.equal(optimal.search.status, 'optimal', 'precondition: proven within the default budget');
    const page = await openPage(site, `#example=${example}&strategy=inductor`);
    await waitForPlan(page);
    await page.getByTestId('opt-optimal').focus();
    await page.keyboard.press('Space'); // by keyboard
    await waitForStatus(page, /^Fastest plan, proven in \d+ ms$/);
    assert.deepEqual((await numberRows(page))[0], [
      'time_fused_us',
      'Estimated time (searched)',
      formatTime(greedy.time_fused_us),
      formatTime(optimal.time_fused_us),
    ]);
    const nodes = await page.getByTestId('search-nodes').textContent();
    assert.match(nodes, /no plan is faster than/);
    await page.waitForFunction(() => /strategy=inductor/.test(location.hash) && /&optimal\b/.test(location.hash));
    await shot(page, 'search-inductor');
    assert.deepEqual(page.problems, []);
    await closePage(page);
  },
);

test(
  'a bounded time certificate as the planner hands it: within the gap of the fastest, a bound in µs, no bytes bound',
  { timeout: 60_000 },
  async () => {
    // The answer is handed to the page as the search worker would, shaped as a tvm plan's search object
    // (docs/design.md §17): objective time, lower_bound_us, no lower_bound.
    const page = await openPage(site, '#example=greedy-trap&optimal');
    await waitForPlan(page);
    await waitForStatus(page, /^Optimal, proven/);
    const shown = await page.evaluate(() => {
      const { store } = window.fusionPlayground;
      const st = store.getState();
      const { text, options, optimal: budget } = st;
      const result = structuredClone(st.search.result);
      const { lower_bound, ...rest } = result.search;
      result.search = {
        ...rest,
        objective: 'time',
        status: 'bounded',
        gap: 0.008,
        lower_bound_us: result.time_fused_us * 0.992,
        greedy_time_fused_us: st.search.greedy.time_fused_us,
      };
      store.dispatch({ type: 'search-started', text, options, budget, started: performance.now() });
      store.dispatch({ type: 'search-result', text, options, budget, result, ms: 2000 });
      const q = (id) => document.querySelector(`[data-testid="${id}"]`).textContent;
      return {
        status: q('search-status'),
        nodes: q('search-nodes'),
        first: document.querySelector('[data-testid="search-numbers"] tr[data-metric]').dataset.metric,
        bound: result.search.lower_bound_us,
        dropped: lower_bound,
      };
    });
    assert.ok(shown.dropped > 0, 'precondition: the seed plan had a bytes bound, dropped for the time search');
    assert.equal(shown.status, 'Within 0.8 % of the fastest after 2.0 s (bounded)');
    assert.equal(shown.first, 'time_fused_us');
    assert.match(
      shown.nodes,
      new RegExp(`; no plan is faster than ${formatTime(shown.bound).replace(' ', '\u00a0')}$`),
    );
    assert.doesNotMatch(shown.nodes, /fewer than/);
    assert.equal(await page.getByTestId('search-longer').isVisible(), true);
    await shot(page, 'search-tvm-bounded');
    assert.deepEqual(page.problems, []);
    await closePage(page);
  },
);

test('the switch and its budget ride in share links and come back', { timeout: 60_000 }, async () => {
  const page = await openPage(
    site,
    `#${encodeState({ example: 'greedy-trap', text: `${TRAP} `, options: OPTIONS, optimal: 2_000_000 })}`,
  );
  await waitForPlan(page);
  await waitForStatus(page, /^Optimal, proven/);
  assert.equal(await page.getByTestId('opt-optimal').isChecked(), true);
  assert.equal(await page.getByTestId('search-budget').inputValue(), '2000000');
  // Back to the readable link with the default budget, then reloaded from the address bar.
  await page.goto(`${site.server.url}#example=greedy-trap&optimal`);
  await page.reload();
  await waitForStatus(page, /^Optimal, proven/);
  assert.equal(await page.getByTestId('search-budget').inputValue(), '200000');
  assert.equal((await state(page)).optimal, 200_000);
  assert.deepEqual(page.problems, []);
  await closePage(page);
});
