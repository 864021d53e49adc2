// page-strategies.test.mjs — the Strategy and Hardware pickers: each strategy shows the native CLI's numbers
// (bytes, estimated time, kernels, pattern labels, reasons), recomputed ops are marked, the choice rides in
// the share link and the draft (old links open with the default), the pickers work from the keyboard, and
// embed mode and the <fusion-playground> element take strategy/hardware too. Expected values come from
// build/native/cli/fusion-plan --strategy S --hardware H on the same text.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { readFileSync } from 'node:fs';
import { planWithCli as cli } from '../wasm/native-cli.mjs';
import { encodeState } from '../../web/src/share/url-state.js';
import { cutOffCells, openSite, openPage, closePage, waitForPlan, shownNumbers, shot, root } from './page-helpers.mjs';
import { EPILOGUE, SHARED } from './strategy-graphs.mjs';

let site;
before(async () => {
  site = await openSite();
});
after(async () => {
  await site?.close();
});

const linkTo = (text, options = {}) =>
  `#${encodeState({ example: null, text, options: { broadcast: true, resident_sources: false, ...options } })}`;
const digits = (s) => s.replace(/[^\d.]/g, '');

// What the plan panel shows, exactly (titles carry the planner's unrounded numbers).
async function shownPlan(page) {
  const numbers = await shownNumbers(page);
  return page.evaluate((n) => {
    const title = (id) => document.getElementById(id).title;
    const cy = window.fusionPlayground.graphView.cy;
    return {
      ...n,
      time_fused: title('time-fused'),
      time_unfused: title('time-unfused'),
      time_speedup: document.getElementById('time-speedup').textContent,
      labels: [...document.querySelectorAll('[data-testid="group-label"]')].map((e) => e.textContent),
      clusters: cy
        .nodes('.group')
        .map((g) => g.data('label'))
        .filter(Boolean),
      reasons: [...document.querySelectorAll('#reasons li[data-reason]')].map((li) => [
        li.dataset.reason,
        li.querySelector('p').textContent,
      ]),
    };
  }, numbers);
}

function assertMatchesCli(shown, plan, what) {
  assert.equal(shown.bytes_unfused, plan.bytes_unfused, what);
  assert.equal(shown.bytes_fused, plan.bytes_fused, what);
  assert.equal(shown.kernels, `${plan.kernels_unfused} → ${plan.kernels_fused}`, what);
  assert.equal(Number(shown.time_fused.split(' ')[0]), plan.time_fused_us, what);
  assert.equal(Number(shown.time_unfused.split(' ')[0]), plan.time_unfused_us, what);
  assert.equal(shown.time_speedup, `${plan.time_speedup.toFixed(2)}×`, what);
  const labels = plan.groups.map((g) => g.label).filter(Boolean);
  assert.deepEqual(shown.labels, labels, `${what}: pattern labels in the table`);
  const clusterLabels = plan.groups
    .filter((g) => g.ops.length > 1)
    .map((g) => g.label)
    .filter(Boolean);
  assert.deepEqual([...shown.clusters].sort(), clusterLabels.sort(), `${what}: pattern labels on the graph`);
  const unfused = plan.edges.filter((e) => !e.fused).map((e) => e.reason);
  assert.deepEqual(shown.reasons.map(([r]) => r).sort(), unfused.sort(), `${what}: one reason per unfused edge`);
  for (const [code, words] of shown.reasons) assert.doesNotMatch(words, /^Not fused: /, `${what}: ${code} has words`);
}

test(
  'each strategy in the picker shows the native CLI’s bytes, time, kernels, labels and reasons',
  { timeout: 120_000 },
  async () => {
    const page = await openPage(site, linkTo(EPILOGUE));
    let n = await waitForPlan(page);
    const names = await page
      .getByTestId('opt-strategy')
      .locator('option')
      .evaluateAll((os) => os.map((o) => o.value));
    assert.deepEqual(names, ['seed', 'xla', 'xla-classic', 'tvm', 'inductor']);
    const seed = cli(EPILOGUE);
    assertMatchesCli(await shownPlan(page), seed, 'seed (default)');
    const seen = new Set([`${seed.bytes_fused}/${seed.kernels_fused}`]);
    for (const strategy of names.slice(1)) {
      await page.getByTestId('opt-strategy').selectOption(strategy);
      n = await waitForPlan(page, n + 1);
      const plan = cli(EPILOGUE, { strategy });
      assert.equal(plan.options.strategy, strategy);
      assertMatchesCli(await shownPlan(page), plan, strategy);
      seen.add(`${plan.bytes_fused}/${plan.kernels_fused}`);
      if (strategy === 'tvm') await shot(page, 'strategy-tvm');
    }
    assert.ok(seen.size > 1, 'the strategies plan this graph differently');
    assert.deepEqual(page.problems, []);
    await closePage(page);
  },
);

test(
  'the hardware picker changes the time estimate to the CLI’s --hardware numbers, not the bytes',
  { timeout: 60_000 },
  async () => {
    const page = await openPage(site, linkTo(EPILOGUE, { strategy: 'tvm' }));
    let n = await waitForPlan(page);
    await page.locator('#options-menu summary').click(); // the Hardware picker is in the Options menu
    const names = await page
      .getByTestId('opt-hardware')
      .locator('option')
      .evaluateAll((os) => os.map((o) => o.value));
    assert.deepEqual(names, ['h100', 'a100', 'rtx4090']);
    const times = new Set();
    for (const hardware of names) {
      // Every pick changes the device (h100 first, away from the default a100), so each waits for its own plan:
      // reading before it arrives would check the previous device's numbers against this one's.
      await page.getByTestId('opt-hardware').selectOption(hardware);
      n = await waitForPlan(page, n + 1);
      const plan = cli(EPILOGUE, { strategy: 'tvm', hardware });
      const shown = await shownPlan(page);
      assertMatchesCli(shown, plan, hardware);
      assert.match(
        await page.getByTestId('time-hardware').textContent(),
        new RegExp(`on ${hardware === 'rtx4090' ? 'RTX 4090' : hardware.toUpperCase()}`),
      );
      times.add(plan.time_fused_us);
    }
    assert.equal(times.size, 3, 'each device gives its own time');
    await closePage(page);
  },
);

test(
  'a recomputed op is listed in every group that holds it and marked on the graph',
  { timeout: 60_000 },
  async () => {
    const strategies = ['xla', 'xla-classic', 'inductor'].filter((s) =>
      cli(SHARED, { strategy: s }).groups.some((g) => g.recomputed.length),
    );
    assert.ok(strategies.length > 0, 'a strategy with recompute: cheap copies the shared neg (precondition)');
    const plan = cli(SHARED, { strategy: strategies[0] });
    const page = await openPage(site, linkTo(SHARED, { strategy: strategies[0] }));
    await waitForPlan(page);
    const copies = plan.groups.flatMap((g) => g.recomputed.map((op) => [g.id, op]));
    for (const [group, opId] of copies) {
      const chip = page.locator(`#groups-body tr[data-group="${group}"] code.recomputed`);
      assert.equal(await chip.count(), 1, `group ${group} marks its copy`);
      assert.match(await chip.textContent(), new RegExp(`↻ ${JSON.parse(SHARED).ops[opId].name}`));
    }
    // The op appears in as many rows as groups hold it; on the graph it has the recomputed halo.
    const e = copies[0][1];
    const holders = plan.groups.filter((g) => g.ops.includes(e)).length;
    assert.ok(holders >= 2);
    const rows = await page
      .locator('#groups-body tr')
      .evaluateAll(
        (trs, name) =>
          trs.filter((tr) =>
            [...tr.cells[1].querySelectorAll('code')].some((c) => c.textContent.replace('↻ ', '') === name),
          ).length,
        JSON.parse(SHARED).ops[e].name,
      );
    assert.equal(rows, holders);
    assert.equal(
      await page.evaluate((i) => window.fusionPlayground.graphView.cy.$id(`op${i}`).hasClass('recomputed'), e),
      true,
    );
    // Selecting the op says which other kernels recompute it.
    const others = plan.groups.filter((g) => g.ops.includes(e) && g.id !== plan.op_group[e]).map((g) => g.id);
    const pos = await page.evaluate((i) => window.fusionPlayground.screenPosition(i), e);
    await page.mouse.click(pos.x, pos.y);
    assert.equal(
      await page.getByTestId('op-copies').textContent(),
      `↻ Also recomputed inside kernel ${others.join(', ')}.`,
    );
    await shot(page, 'strategy-recomputed');
    await closePage(page);
  },
);

test(
  'the choice rides in the share link and the draft; an old link opens with the default strategy',
  { timeout: 90_000 },
  async () => {
    const page = await openPage(site, '#example=transformer-mlp');
    let n = await waitForPlan(page);
    await page.getByTestId('opt-strategy').selectOption('tvm');
    n = await waitForPlan(page, n + 1);
    await page.locator('#options-menu summary').click();
    await page.getByTestId('opt-hardware').selectOption('h100');
    await waitForPlan(page, n + 1);
    await page.waitForFunction(() => location.hash === '#example=transformer-mlp&strategy=tvm&hardware=h100');
    const shown = await shownPlan(page);
    const expected = cli(readFileSync(root('examples/transformer-mlp.json'), 'utf8'), {
      strategy: 'tvm',
      hardware: 'h100',
    });
    assertMatchesCli(shown, expected, 'tvm on h100');

    const again = await openPage(site, '#example=transformer-mlp&strategy=tvm&hardware=h100');
    await waitForPlan(again);
    assert.deepEqual(
      [await again.getByTestId('opt-strategy').inputValue(), await again.getByTestId('opt-hardware').inputValue()],
      ['tvm', 'h100'],
    );
    const reopened = await shownPlan(again);
    assert.deepEqual(
      { ...reopened, clusters: [...reopened.clusters].sort() },
      { ...shown, clusters: [...shown.clusters].sort() },
    );
    // The draft: the same tab, opened again with no link, keeps the choice.
    await again.waitForFunction(() => localStorage.getItem('fusion-playground:draft')?.includes('"strategy":"tvm"'));
    await again.goto('about:blank');
    await again.goto(site.server.url);
    await waitForPlan(again);
    assert.equal(await again.getByTestId('opt-strategy').inputValue(), 'tvm');
    assert.equal(await again.getByTestId('opt-hardware').inputValue(), 'h100');

    // A format-1 link made before strategies existed opens with seed on a100.
    const old = await openPage(
      site,
      '#state=1.N4IgLiBcLAOiB7ADgZ3pABAbVgOwxnCLgIYC2ApuhvAB7wA0NIA1gJa4Am18HSArmEbMUACxJIqUbAA4Auk3icwAT0k8QAMwDMAJngBfBngJFSlDSuHx2XDQCcKAG37WQfQWmk4Q9EApFxdW95RRBlNSlMeB19EAM8OQTcEAZEKFAAIyhNEicUCjT7KDB7fgoDAyA',
    );
    await waitForPlan(old);
    assert.deepEqual(
      [await old.getByTestId('opt-strategy').inputValue(), await old.getByTestId('opt-hardware').inputValue()],
      ['seed', 'a100'],
    );
    const text = await old.evaluate(() => window.fusionPlayground.store.getState().text);
    assertMatchesCli(await shownPlan(old), cli(text, { broadcast: false, resident_sources: true }), 'old link');
    for (const p of [page, again, old]) assert.deepEqual(p.problems, []);
    for (const p of [page, again, old]) await closePage(p);
  },
);

test('the pickers are labelled and work from the keyboard', { timeout: 60_000 }, async () => {
  const page = await openPage(site, '#example=transformer-mlp');
  const n = await waitForPlan(page);
  const labels = await page.evaluate(() =>
    ['opt-strategy', 'opt-hardware'].map((id) => document.getElementById(id).labels[0].textContent.trim()),
  );
  assert.deepEqual(
    labels.map((l) => l.split(/\s/)[0]),
    ['Strategy', 'Hardware'],
  );
  // Tab reaches the strategy picker; ArrowDown picks the next strategy and the page re-plans.
  for (let i = 0; i < 30 && (await page.evaluate(() => document.activeElement.id)) !== 'opt-strategy'; i++)
    await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'opt-strategy');
  await page.keyboard.press('ArrowDown');
  await waitForPlan(page, n + 1);
  assert.equal(await page.evaluate(() => window.fusionPlayground.store.getState().options.strategy), 'xla');
  // Next come the Optimal switch (plan search, right after the strategy it searches) and the Options menu: Enter
  // opens it, and Tab reaches the Hardware picker inside.
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'opt-optimal');
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.parentElement.id), 'options-menu');
  await page.keyboard.press('Enter');
  for (let i = 0; i < 4 && (await page.evaluate(() => document.activeElement.id)) !== 'opt-hardware'; i++)
    await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'opt-hardware');
  await closePage(page);
});

test('embed mode takes the strategy from its link and says which one it shows', { timeout: 60_000 }, async () => {
  const page = await openPage(site, '?embed#example=transformer-mlp&strategy=tvm', { width: 720, height: 480 });
  await waitForPlan(page);
  const plan = cli(readFileSync(root('examples/transformer-mlp.json'), 'utf8'), { strategy: 'tvm' });
  const shown = await shownNumbers(page);
  assert.deepEqual(
    [shown.bytes_fused, shown.kernels],
    [plan.bytes_fused, `${plan.kernels_unfused} → ${plan.kernels_fused}`],
  );
  assert.match(await page.getByTestId('embed-bar').textContent(), /TVM-style/);
  await shot(page, 'embed-strategy');
  await closePage(page);
});

test('the element’s strategy and hardware attributes give the CLI’s numbers', { timeout: 60_000 }, async () => {
  const page = await openPage(site, 'element-demo.html', { width: 820, height: 900 });
  await page.waitForFunction(() => Number(document.querySelector('#by-url')?.dataset.planShown) >= 1, null, {
    timeout: 30_000,
  });
  await page.evaluate(() => {
    const el = document.querySelector('#by-url');
    el.setAttribute('strategy', 'tvm');
    el.setAttribute('hardware', 'h100');
  });
  await page.waitForFunction(() =>
    /tvm strategy on h100/.test(document.querySelector('#by-url').shadowRoot.querySelector('.status').textContent),
  );
  const text = readFileSync(root('web/public/element-demo-graph.json'), 'utf8');
  const plan = cli(text, { strategy: 'tvm', hardware: 'h100' });
  const shown = await page.evaluate(() => {
    const root = document.querySelector('#by-url').shadowRoot;
    const v = (k) => root.querySelector(`[data-value="${k}"]`);
    return {
      fused: v('bytes_fused').title,
      kernels: v('kernels').textContent,
      time: v('time').title,
      status: root.querySelector('.status').textContent,
    };
  });
  assert.equal(digits(shown.fused), String(plan.bytes_fused));
  assert.equal(shown.kernels, `${plan.kernels_unfused} → ${plan.kernels_fused}`);
  assert.equal(Number(shown.time.split(' ')[0]), plan.time_fused_us);
  assert.match(shown.time, /estimated on h100/);
  assert.match(shown.status, /tvm strategy on h100/);
  await closePage(page);
});

test(
  'pattern labels and kernel times keep the group table inside its pane at 1120 px',
  { timeout: 60_000 },
  async () => {
    const page = await openPage(site, '#example=resnet-basic-block&strategy=tvm', { width: 1120, height: 900 });
    await waitForPlan(page);
    assert.ok((await page.locator('[data-testid="group-label"]').count()) > 0, 'the plan has pattern labels');
    assert.deepEqual(await cutOffCells(page), []);
    await closePage(page);
  },
);
