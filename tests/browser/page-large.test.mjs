// page-large.test.mjs — a 5,000-op model (the transformer benchmark generator, as ONNX) stays usable: it opens
// with its fusion groups collapsed and is planned in the worker, groups open and close by click, key and
// button, Find reveals an op inside a closed group, and the "largest savings first" list is ordered.
// How long it takes to open, and the longest main-thread task and frame gap meanwhile, are measured by
// bench/page-timing.mjs (`npm run bench:page`), not here: they depend on the machine and its load.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, before, test } from 'node:test';
import { openSite, openPage, waitForPlan, shownNumbers, editorText, shot, root } from './page-helpers.mjs';
import { dropFile, cliPlan, numbersOf } from './import-helpers.mjs';
import { graphToOnnx } from '../../bench/onnx-from-graph.mjs';
import { decodeState } from '../../web/src/share/url-state.js';

const OPS = 5000;
let site;
let page;
let text; // the generated graph JSON
let plan; // the native CLI's plan for the page's graph (the importer's; same numbers, its own op order)
before(async () => {
  text = spawnSync(root('build/native/bench/fusion-generate'), ['transformer', String(OPS)], {
    maxBuffer: 1 << 28,
  }).stdout.toString();
  site = await openSite();
  page = await openPage(site, '#example=diamond');
  await waitForPlan(page);
});
after(async () => {
  await site?.close();
});

const multiGroups = () => plan.groups.filter((g) => g.ops.length > 1);
const drawn = () =>
  page.evaluate(() => {
    const { cy } = window.fusionPlayground.graphView;
    return { collapsed: cy.nodes('.collapsed').length, clusters: cy.nodes('.group').length, nodes: cy.nodes().length };
  });
const shownCount = () => page.evaluate(() => Number(document.body.dataset.planShown));
// Plans answered so far, per place ('worker' | 'main'), as the page's planner client counts them.
const planned = () => page.evaluate(() => ({ ...window.fusionPlayground.planner.ran }));

test('a 5,000-op ONNX model opens with its groups collapsed, planned in the worker', { timeout: 240_000 }, async () => {
  const n = await shownCount();
  const ran = await planned();
  await dropFile(page, '#graph', 'transformer-5000.onnx', graphToOnnx(JSON.parse(text)));
  await waitForPlan(page, n + 1, 180_000);
  const now = await planned();
  assert.equal(now.main, ran.main, 'nothing was planned on the main thread');
  assert.ok(now.worker > ran.worker, 'the worker answered the plan');

  assert.deepEqual(
    await shownNumbers(page),
    numbersOf(cliPlan(text)),
    "the numbers are the CLI's for the generated graph",
  );
  plan = cliPlan(await editorText(page));
  assert.deepEqual(numbersOf(plan), numbersOf(cliPlan(text)));
  const d = await drawn();
  assert.equal(d.collapsed, multiGroups().length, 'every multi-op group is one box');
  assert.equal(d.clusters, 0);
  assert.equal(d.nodes, plan.op_group.length - multiGroups().reduce((s, g) => s + g.ops.length - 1, 0));
  assert.equal(
    await page.getByTestId('expand-state').textContent(),
    `${multiGroups().length} of ${multiGroups().length} kernels collapsed`,
  );
  assert.equal(
    await page.evaluate(() => window.fusionPlayground.timings.lastLayout.engine),
    'layered',
    'too big for ELK: the quick layout',
  );
  await shot(page, 'large-collapsed');
  // The share link of the imported graph is compressed off the main thread (link-worker.js) and still opens it.
  const graphText = await editorText(page);
  await page.waitForFunction(() => location.hash.startsWith('#state='), null, { timeout: 60_000 });
  const link = decodeState(await page.evaluate(() => location.hash));
  assert.equal(link.state?.text, graphText);
  assert.deepEqual(page.problems, []);
});

test(
  'a click opens a collapsed group, E closes it, and the buttons open or close them all',
  { timeout: 240_000 },
  async () => {
    const g = multiGroups()[3];
    let n = await shownCount();
    const at = await page.evaluate((op) => window.fusionPlayground.screenPosition(op), g.ops[0]);
    await page.mouse.click(at.x, at.y);
    n = await waitForPlan(page, n + 1, 120_000);
    assert.equal(
      await page.evaluate((k) => window.fusionPlayground.graphView.cy.$id(`g${k}`).children().length, g.id),
      g.ops.length,
      'its ops are drawn inside its cluster',
    );
    assert.deepEqual(await page.evaluate(() => window.fusionPlayground.store.getState().selection), {
      kind: 'group',
      id: g.id,
    });
    assert.equal((await drawn()).collapsed, multiGroups().length - 1);
    await page.waitForTimeout(400);
    await shot(page, 'large-expanded-group');

    await page.locator('#graph').focus();
    await page.keyboard.press('e');
    n = await waitForPlan(page, n + 1, 120_000);
    assert.equal((await drawn()).collapsed, multiGroups().length);

    await page.getByTestId('expand-all').click();
    n = await waitForPlan(page, n + 1, 180_000);
    assert.deepEqual([(await drawn()).collapsed, (await drawn()).clusters], [0, multiGroups().length]);
    await page.getByTestId('collapse-all').click();
    await waitForPlan(page, n + 1, 180_000);
    assert.equal((await drawn()).collapsed, multiGroups().length);
    assert.deepEqual(page.problems, []);
  },
);

test(
  'Find reveals an op inside a collapsed group: the group opens and the op is selected',
  { timeout: 180_000 },
  async () => {
    const g = multiGroups()[10];
    const op = g.ops[g.ops.length - 1];
    const n = await shownCount();
    const name = await page.evaluate((i) => window.fusionPlayground.store.getState().graph.ops[i].name, op);
    await page.getByTestId('find').fill(name);
    await page.getByTestId('find').press('Enter');
    await waitForPlan(page, n + 1, 120_000);
    assert.deepEqual(await page.evaluate(() => window.fusionPlayground.store.getState().selection), {
      kind: 'op',
      id: op,
    });
    assert.equal(
      await page.evaluate((i) => window.fusionPlayground.graphView.cy.$id(`op${i}`).hasClass('selected'), op),
      true,
    );
    assert.equal((await drawn()).collapsed, multiGroups().length - 1);
  },
);

test(
  "the largest savings come first, as the plan's numbers say; a click selects that kernel",
  { timeout: 60_000 },
  async () => {
    // What fusing each group saves: its ops' unfused bytes less the group's reads and writes (plan numbers).
    const saved = new Map(plan.groups.map((g) => [g.id, -(g.bytes_read + g.bytes_written)]));
    plan.op_group.forEach((k, i) => saved.set(k, saved.get(k) + plan.op_bytes_unfused[i]));
    const best = Math.max(...saved.values());
    const items = await page
      .locator('[data-testid="savings"] li')
      .evaluateAll((lis) =>
        lis.map((li) => [Number(li.dataset.group), Number(li.querySelector('[data-saved]').dataset.saved)]),
      );
    assert.equal(items.length, 25);
    for (let k = 1; k < items.length; k++) assert.ok(items[k - 1][1] >= items[k][1], 'ordered, largest first');
    assert.equal(items[0][1], best);
    for (const [group, bytes] of items) assert.equal(bytes, saved.get(group), `kernel ${group}`);
    await page.locator('[data-testid="savings"] li').first().click();
    assert.deepEqual(await page.evaluate(() => window.fusionPlayground.store.getState().selection), {
      kind: 'group',
      id: items[0][0],
    });
    assert.deepEqual(page.problems, []);
  },
);

test('when ELK fails on a graph, the quick layered layout places it instead', { timeout: 60_000 }, async () => {
  const out = await page.evaluate(async () => {
    const node = (id) => ({ id, op: 0, label: id, kind: 'relu', shape: [4], parent: null });
    // An edge to a node that is not there: ELK throws on it (as it may overflow its stack on big graphs).
    // 60 nodes, above the light layout's 50, so ELK is asked.
    const more = Array.from({ length: 58 }, (_, k) => node(`n${k}`));
    const vm = {
      nodes: [node('a'), node('b'), ...more],
      groups: [],
      edges: [
        { id: 'e', source: 'a', target: 'b' },
        { id: 'x', source: 'a', target: 'ghost' },
      ],
    };
    const r = await window.fusionPlayground.layoutGraph(vm, { direction: 'DOWN' });
    return {
      engine: r.engine,
      reason: r.reason,
      placed: Object.keys(r.positions).sort(),
      below: r.positions.b.y > r.positions.a.y,
    };
  });
  assert.equal(out.engine, 'layered');
  assert.match(out.reason, /ELK failed: .*ghost/);
  assert.deepEqual(out.placed, ['a', 'b', ...Array.from({ length: 58 }, (_, k) => `n${k}`)].sort());
  assert.equal(out.below, true);
  // The worker still answers ELK requests afterwards (a graph above the light layout's 50 nodes).
  const again = await page.evaluate(async () => {
    const nodes = Array.from({ length: 60 }, (_, k) => ({ id: `n${k}`, label: `n${k}`, kind: 'relu', shape: [4] }));
    const edges = nodes.slice(1).map((n, k) => ({ id: `e${k}`, source: `n${k}`, target: n.id }));
    return (await window.fusionPlayground.layoutGraph({ nodes, groups: [], edges }, {})).engine;
  });
  assert.equal(again, 'elk');
});
