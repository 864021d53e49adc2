// element.test.mjs — the <fusion-playground> custom element on a plain static page (dist/element-demo.html,
// one script tag): an inline graph, a same-origin src, a gallery example coloured by bytes; each shows the
// native CLI's numbers; a cross-origin src and a broken graph are explained inside the element.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { runCli } from '../wasm/native-cli.mjs';
import { openSite, openPage, closePage, shot, root } from './page-helpers.mjs';

let site;
before(async () => {
  site = await openSite();
});
after(async () => {
  await site?.close();
});

// Waits until every <fusion-playground> on the page has drawn once.
const waitForElements = (page) =>
  page.waitForFunction(
    () => {
      const els = [...document.querySelectorAll('fusion-playground')];
      return els.length > 0 && els.every((e) => Number(e.dataset.planShown) >= 1);
    },
    null,
    { timeout: 30_000 },
  );

// The numbers an element shows (its shadow DOM), with the exact bytes from the tooltips.
const numbers = (page, id) =>
  page.evaluate((sel) => {
    const v = (k) => document.querySelector(sel).shadowRoot.querySelector(`[data-value="${k}"]`);
    return {
      unfused: v('bytes_unfused').title.replace(/\D/g, ''),
      fused: v('bytes_fused').title.replace(/\D/g, ''),
      speedup: v('speedup').textContent,
      kernels: v('kernels').textContent,
    };
  }, `#${id}`);

const cliNumbers = (text) => {
  const cli = JSON.parse(runCli(text).stdout);
  return {
    unfused: String(cli.bytes_unfused),
    fused: String(cli.bytes_fused),
    speedup: `${cli.speedup_estimate.toFixed(2)}×`,
    kernels: `${cli.kernels_unfused} → ${cli.kernels_fused}`,
  };
};

test(
  'one script tag: inline, same-origin src and example elements show the planner’s numbers',
  { timeout: 60_000 },
  async () => {
    const page = await openPage(site, 'element-demo.html', { width: 820, height: 1400 });
    await waitForElements(page);
    const inline = await page.evaluate(() => document.querySelector('#inline > script').textContent);
    assert.deepEqual(await numbers(page, 'inline'), cliNumbers(inline));
    assert.deepEqual(
      await numbers(page, 'by-url'),
      cliNumbers(readFileSync(root('web/public/element-demo-graph.json'), 'utf8')),
    );
    assert.deepEqual(
      await numbers(page, 'example'),
      cliNumbers(readFileSync(root('examples/attention-scores.json'), 'utf8')),
    );
    // The graph is drawn as SVG (small graphs need no Cytoscape): one box per op, fused groups as clusters
    // titled by kernel; color-by="bytes" shows its legend and fills the boxes.
    const drawn = await page.evaluate(() =>
      [...document.querySelectorAll('fusion-playground')].map((e) => ({
        id: e.id,
        legend: !e.shadowRoot.querySelector('.legend').hidden,
        ops: e.shadowRoot.querySelectorAll('svg [data-op]').length,
        shownOps: Number(e.shadowRoot.querySelector('.status').textContent.match(/^(\d+) ops/)[1]),
        clusters: [...e.shadowRoot.querySelectorAll('svg [data-group] text')].map((t) => t.textContent),
        filled: [...e.shadowRoot.querySelectorAll('svg [data-op] rect.box')].filter((r) => r.style.fill).length,
        canvas: e.shadowRoot.querySelectorAll('canvas').length,
      })),
    );
    assert.deepEqual(
      drawn.map((d) => d.legend),
      [false, false, true, false],
    );
    for (const d of drawn) {
      assert.ok(d.ops > 0 && d.ops === d.shownOps, `${d.id}: ${d.ops} boxes for ${d.shownOps} ops`);
      assert.ok(d.clusters.length > 0 && d.clusters.every((c) => /^kernel \d+/.test(c)), `${d.id}: ${d.clusters}`);
      assert.equal(d.canvas, 0, `${d.id}: no Cytoscape for a small graph`);
    }
    assert.deepEqual(
      drawn.map((d) => d.filled > 0),
      [false, false, true, false],
    );
    // The link is made once the plan is drawn.
    await page.waitForFunction(() =>
      [...document.querySelectorAll('fusion-playground')].every((e) => e.shadowRoot.querySelector('a').href),
    );
    // "Open in playground" carries the graph to the full page.
    const href = await page.evaluate(() => document.querySelector('#inline').shadowRoot.querySelector('a').href);
    assert.match(href, /\/#state=1\./);
    const full = await openPage(site, href.slice(site.server.url.length));
    await full.waitForFunction(() => Number(document.body.dataset.planShown) >= 1, null, { timeout: 30_000 });
    assert.equal(
      (await full.getByTestId('bytes-fused-exact').textContent()).replace(/\D/g, ''),
      cliNumbers(inline).fused,
    );
    await shot(page, 'element-demo');
    assert.deepEqual([...page.problems, ...full.problems], []);
    await closePage(page);
    await closePage(full);
  },
);

test(
  'a graph of more than 50 boxes is drawn with Cytoscape, and back to SVG when it shrinks',
  { timeout: 60_000 },
  async () => {
    const page = await openPage(site, 'element-demo.html', { width: 820, height: 900 });
    await waitForElements(page);
    const chain = (n) =>
      JSON.stringify({
        ops: [
          { name: 'x', kind: 'input', shape: [64, 64], dtype: 'f32' },
          ...Array.from({ length: n }, (_, k) => ({
            name: `op${k}`,
            kind: k % 5 === 4 ? 'matmul' : 'relu',
            inputs: k % 5 === 4 ? [`op${k - 1}`, 'x'] : [k ? `op${k - 1}` : 'x'],
            shape: [64, 64],
            dtype: 'f32',
          })),
        ],
      });
    const draw = (text, times) =>
      page.evaluate(
        async ([json, n]) => {
          const script = `<script type="application/json">${json}</` + 'script>';
          let el = document.getElementById('big');
          if (el) {
            el.innerHTML = script;
            el.setAttribute('strategy', 'tvm'); // an attribute change re-plans
          } else {
            document.body.insertAdjacentHTML('beforeend', `<fusion-playground id="big">${script}</fusion-playground>`);
            el = document.getElementById('big');
          }
          await new Promise((done) => {
            const t = setInterval(() => Number(el.dataset.planShown) >= n && (clearInterval(t), done()), 20);
          });
          const root = el.shadowRoot;
          return {
            canvas: root.querySelectorAll('canvas').length,
            svgOps: root.querySelectorAll('svg [data-op]').length,
            status: root.querySelector('.status').textContent,
          };
        },
        [text, times],
      );
    const big = await draw(chain(70), 1);
    assert.match(big.status, /^71 ops/);
    assert.ok(big.canvas > 0 && big.svgOps === 0, JSON.stringify(big));
    const small = await draw(chain(8), 2);
    assert.match(small.status, /^9 ops/);
    assert.deepEqual([small.canvas, small.svgOps], [0, 9]);
    assert.deepEqual(page.problems, []);
    await closePage(page);
  },
);

test(
  'a cross-origin src, a missing file and a broken graph are explained inside the element',
  { timeout: 60_000 },
  async () => {
    const page = await openPage(site, 'element-demo.html', { width: 820, height: 900 });
    await waitForElements(page);
    const message = async (setup) =>
      page.evaluate(async (html) => {
        document.body.insertAdjacentHTML('beforeend', html);
        const el = document.body.lastElementChild;
        await new Promise((done) => {
          const t = setInterval(() => {
            if (el.dataset.planShown) {
              clearInterval(t);
              done();
            }
          }, 20);
        });
        return el.shadowRoot.querySelector('.message').textContent;
      }, setup);
    assert.match(
      await message('<fusion-playground src="https://elsewhere.example.com/g.json"></fusion-playground>'),
      /src must be on this site .* is another origin/,
    );
    assert.match(
      await message('<fusion-playground src="no-such-graph.json"></fusion-playground>'),
      /Could not load .*no-such-graph\.json \(HTTP 404\)/,
    );
    assert.match(
      await message(
        '<fusion-playground><script type="application/json">{"ops": [{"name": "a", "kind": "relu", "inputs": ["nope"], "shape": [2], "dtype": "f32"}]}</script></fusion-playground>',
      ),
      /Not planned: .*nope/,
    );
    await closePage(page);
  },
);

test(
  'changing an attribute re-plans: resident-sources gives the native CLI’s --resident-sources numbers',
  { timeout: 60_000 },
  async () => {
    const page = await openPage(site, 'element-demo.html', { width: 820, height: 900 });
    await waitForElements(page);
    await page.evaluate(() => document.querySelector('#by-url').setAttribute('resident-sources', ''));
    await page.waitForFunction(() => Number(document.querySelector('#by-url').dataset.planShown) >= 2);
    const cli = JSON.parse(
      runCli(readFileSync(root('web/public/element-demo-graph.json'), 'utf8'), { resident_sources: true }).stdout,
    );
    const shown = await numbers(page, 'by-url');
    assert.deepEqual([shown.unfused, shown.fused], [String(cli.bytes_unfused), String(cli.bytes_fused)]);
    assert.notEqual(
      shown.unfused,
      cliNumbers(readFileSync(root('web/public/element-demo-graph.json'), 'utf8')).unfused,
      'the option changed the numbers',
    );
    await closePage(page);
  },
);

// The editable element's JSON box (element-editor.js): what the reader types is planned, an error says what and
// where without touching their text or the last good drawing, and Reset restores the original graph.
test(
  'editable: the reader changes the graph, errors say what and where, Reset restores it',
  { timeout: 60_000 },
  async () => {
    const page = await openPage(site, 'element-demo.html', { width: 720, height: 1400 });
    await waitForElements(page);
    const el = page.locator('#editable');
    const box = el.locator('textarea');
    const shown = () => page.evaluate(() => Number(document.querySelector('#editable').dataset.planShown));
    assert.equal(await page.locator('#inline').locator('textarea').count(), 0, 'a read-only element has no box');
    const original = await box.inputValue();
    const before = await numbers(page, 'editable');
    assert.deepEqual(before, cliNumbers(original));
    assert.equal(await el.getByRole('button', { name: 'Reset' }).isDisabled(), true);
    // A graph that plans: relu → exp keeps fusing; a new op changes the numbers.
    const edited = JSON.stringify({
      ops: [
        ...JSON.parse(original).ops,
        {
          name: 'extra',
          kind: 'exp',
          inputs: [JSON.parse(original).ops.at(-1).name],
          shape: JSON.parse(original).ops.at(-1).shape,
          dtype: JSON.parse(original).ops.at(-1).dtype,
        },
      ],
    });
    let n = await shown();
    await box.fill(edited);
    await page.waitForFunction((k) => Number(document.querySelector('#editable').dataset.planShown) > k, n);
    assert.deepEqual(await numbers(page, 'editable'), cliNumbers(edited));
    assert.match(await el.locator('.editor-status').textContent(), /Planned your graph/);
    // Broken JSON: the message names the line and column; the text and the drawing stay.
    const broken = edited.replace('"extra"', '"extra",,');
    n = await shown();
    await box.fill(broken);
    await page.waitForFunction((k) => Number(document.querySelector('#editable').dataset.planShown) > k, n);
    assert.match(await el.locator('.editor-status').textContent(), /Not planned — (Line \d+, column \d+|.*line \d+)/i);
    assert.equal(await box.getAttribute('aria-invalid'), 'true');
    assert.equal(await box.inputValue(), broken, 'what the reader typed is kept');
    assert.deepEqual(await numbers(page, 'editable'), cliNumbers(edited), 'the last good plan stays');
    // An unknown input is named.
    const unknown = JSON.stringify({
      ops: [...JSON.parse(edited).ops.slice(0, -1), { ...JSON.parse(edited).ops.at(-1), inputs: ['nowhere'] }],
    });
    n = await shown();
    await box.fill(unknown);
    await page.waitForFunction((k) => Number(document.querySelector('#editable').dataset.planShown) > k, n);
    assert.match(await el.locator('.editor-status').textContent(), /nowhere/);
    assert.equal(await box.inputValue(), unknown);
    await shot(page, 'element-editable');
    // Reset: the original text and numbers.
    n = await shown();
    await el.getByRole('button', { name: 'Reset' }).click();
    await page.waitForFunction((k) => Number(document.querySelector('#editable').dataset.planShown) > k, n);
    assert.equal(await box.inputValue(), original);
    assert.deepEqual(await numbers(page, 'editable'), before);
    assert.deepEqual(page.problems, []);
    await closePage(page);
  },
);

for (const width of [720, 390, 360]) {
  test(
    `at ${width} px the element fits without scrollbars and its texts are at least 11 px`,
    { timeout: 60_000 },
    async () => {
      const page = await openPage(site, 'element-demo.html', { width, height: 1400 });
      await waitForElements(page);
      const report = await page.evaluate(() =>
        [...document.querySelectorAll('fusion-playground')].map((e) => {
          const small = [];
          const root = e.shadowRoot;
          for (const el of root.querySelectorAll('.cards *, .legend span, .foot *')) {
            if (![...el.childNodes].some((n) => n.nodeType === 3 && n.data.trim()) || !el.getBoundingClientRect().width)
              continue;
            const size = parseFloat(getComputedStyle(el).fontSize);
            if (size < 11) small.push(`${el.className}: ${size}`);
          }
          const svg = root.querySelector('svg');
          const scale = svg.getScreenCTM().a;
          for (const t of svg.querySelectorAll('[data-op] text'))
            if (parseFloat(getComputedStyle(t).fontSize) * scale < 10.99) small.push(`label ${t.textContent}`);
          const r = e.getBoundingClientRect();
          return {
            id: e.id,
            small,
            wider: r.right > document.documentElement.clientWidth + 0.5 || e.scrollWidth > e.clientWidth,
          };
        }),
      );
      for (const r of report) assert.deepEqual(r, { id: r.id, small: [], wider: false });
      assert.ok(
        await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth),
      );
      if (width === 360) await shot(page, 'element-360');
      await closePage(page);
    },
  );
}
