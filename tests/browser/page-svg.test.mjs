// page-svg.test.mjs — Export → SVG: the graph on screen as a stand-alone SVG (saved whole, saved as in view,
// copied as text) that parses, holds one element per op and per fusion group, and whose labels are the plan's
// (kernel titles with their pattern labels, op names); in the theme in force, at desktop and phone widths.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { openSite, openPage, closePage, waitForPlan } from './page-helpers.mjs';

let site;
before(async () => {
  site = await openSite();
});
after(async () => {
  await site?.close();
});

// What an SVG text holds, parsed in the page (DOMParser): parse errors, ops, clusters, texts and the viewBox.
const readSvg = (page, text) =>
  page.evaluate((text) => {
    const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
    const svg = doc.documentElement;
    return {
      errors: doc.getElementsByTagName('parsererror').length,
      root: svg.localName,
      ns: svg.namespaceURI,
      viewBox: svg.getAttribute('viewBox').split(' ').map(Number),
      ground: svg.querySelector('rect.ground').getAttribute('fill'),
      ops: [...svg.querySelectorAll('g.op')].map((g) => ({
        ...(g.dataset.ops ? { ops: g.dataset.ops.split(' ').map(Number) } : { op: Number(g.dataset.op) }),
        group: Number(g.dataset.kernel),
        name: g.querySelector('text').textContent,
      })),
      clusters: [...svg.querySelectorAll('g.cluster')].map((g) => ({
        group: Number(g.dataset.group),
        title: g.querySelector('text').textContent,
      })),
      fontFaces: /@font-face|<image|base64/.test(text),
    };
  }, text);

async function saveSvg(page, id) {
  await page.locator('#export-menu summary').click();
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId(id).click()]);
  assert.equal(download.suggestedFilename(), 'fusion-graph.svg');
  return readFileSync(await download.path(), 'utf8');
}

test('Save graph as SVG: one element per op and per group, labelled as the plan', { timeout: 60_000 }, async () => {
  const page = await openPage(site, '?theme=light#example=resnet-basic-block&strategy=tvm');
  await waitForPlan(page);
  const svg = await readSvg(page, await saveSvg(page, 'export-svg'));
  const { graph, plan } = await page.evaluate(() => {
    const s = window.fusionPlayground.store.getState();
    return { graph: s.graph, plan: s.plan };
  });
  assert.equal(svg.errors, 0);
  assert.equal(svg.root, 'svg');
  assert.equal(svg.ns, 'http://www.w3.org/2000/svg');
  assert.equal(svg.fontFaces, false, 'text as text, no embedded fonts or pictures');
  assert.equal(svg.ground, '#fbfcfd');
  // One <g class="op"> per op, named as in the graph, in the group the plan puts it in.
  assert.deepEqual(
    svg.ops.sort((a, b) => a.op - b.op),
    graph.ops.map((op, i) => ({ op: i, group: plan.op_group[i], name: op.name })),
  );
  // One cluster per kernel of more than one op, titled "kernel N · <the plan's pattern label>".
  const multi = plan.groups.filter((g) => g.ops.length > 1);
  assert.ok(multi.length >= 2);
  assert.deepEqual(
    svg.clusters.sort((a, b) => a.group - b.group),
    multi.map((g) => ({ group: g.id, title: `kernel ${g.id}${g.label ? ` · ${g.label}` : ''}` })),
  );
  assert.ok(multi.some((g) => g.label)); // pattern labels are there to compare
  // A closed group is one box in the SVG too, as on screen: its ops are one op element, its cluster is gone.
  const closed = multi[0];
  const n = await page.evaluate(() => Number(document.body.dataset.planShown));
  await page.evaluate(
    (group) => window.fusionPlayground.store.dispatch({ type: 'expand', group, open: false }),
    closed.id,
  );
  await waitForPlan(page, n + 1);
  const folded = await readSvg(page, await saveSvg(page, 'export-svg'));
  assert.equal(folded.errors, 0);
  assert.equal(folded.ops.length, graph.ops.length - closed.ops.length + 1);
  assert.deepEqual(
    folded.ops.filter((o) => o.group === closed.id),
    [{ ops: closed.ops, group: closed.id, name: `▸ kernel ${closed.id} · ${closed.ops.length} ops` }],
  );
  assert.deepEqual(
    folded.clusters.map((c) => c.group).sort((a, b) => a - b),
    multi.slice(1).map((g) => g.id),
  );
  assert.deepEqual(page.problems, []);
  await closePage(page);
});

test(
  'the part in view is a smaller SVG; Copy as SVG puts the same drawing on the clipboard, in dark',
  { timeout: 60_000 },
  async () => {
    const page = await openPage(site, '?theme=dark#example=transformer-mlp');
    await page
      .context()
      .grantPermissions(['clipboard-read', 'clipboard-write'], { origin: site.server.url.replace(/\/$/, '') });
    await waitForPlan(page);
    const whole = await readSvg(page, await saveSvg(page, 'export-svg'));
    assert.equal(whole.ground, '#0d1117');
    // Zoom in on the first op: the part in view is smaller than the whole and holds fewer ops.
    await page.evaluate(() => {
      const cy = window.fusionPlayground.graphView.cy;
      cy.zoom({ level: 2.5, position: cy.$('node[op]').first().position() });
    });
    const view = await readSvg(page, await saveSvg(page, 'export-svg-view'));
    const extent = await page.evaluate(() => window.fusionPlayground.graphView.cy.extent());
    assert.equal(view.errors, 0);
    assert.ok(Math.abs(view.viewBox[2] - extent.w) < 1 && Math.abs(view.viewBox[3] - extent.h) < 1);
    assert.ok(view.viewBox[2] < whole.viewBox[2]);
    await page.locator('#export-menu summary').click();
    await page.getByTestId('copy-svg').click();
    await page.getByTestId('notice').waitFor();
    const copied = await readSvg(page, await page.evaluate(() => navigator.clipboard.readText()));
    assert.deepEqual(copied, whole);
    assert.deepEqual(page.problems, []);
    await closePage(page);
  },
);

test('the SVG export works at 1280 and 390 px (the phone layout), in light and dark', { timeout: 90_000 }, async () => {
  for (const width of [1280, 390]) {
    for (const [theme, ground] of [
      ['light', '#fbfcfd'],
      ['dark', '#0d1117'],
    ]) {
      const page = await openPage(site, `?theme=${theme}#example=transformer-mlp`, { width, height: 844 });
      await waitForPlan(page);
      const svg = await readSvg(page, await saveSvg(page, 'export-svg'));
      const { graph, plan } = await page.evaluate(() => {
        const s = window.fusionPlayground.store.getState();
        return { graph: s.graph, plan: s.plan };
      });
      const where = `${width} px, ${theme}`;
      assert.equal(svg.errors, 0, where);
      assert.equal(svg.ground, ground, where);
      assert.deepEqual(
        svg.ops.sort((a, b) => a.op - b.op),
        graph.ops.map((op, i) => ({ op: i, group: plan.op_group[i], name: op.name })),
        where,
      );
      assert.equal(svg.clusters.length, plan.groups.filter((g) => g.ops.length > 1).length, where);
      assert.deepEqual(page.problems, [], where);
      await closePage(page);
    }
  }
});
