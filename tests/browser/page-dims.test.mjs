// page-dims.test.mjs — named dimensions on the page (docs/design.md §16, issue 14): the Sizes panel's sliders
// and fields re-plan as a person drags, steps with keys or types (the worker re-plans the graph it read once),
// the chart draws the planner's sweep with markers where the grouping changes, the plan's byte formulas and
// warnings are shown, the sizes ride in share links, drafts, embeds and the custom element's dims attribute,
// and a size that does not plan (negative, fractional, overflowing, or a name with no value) is explained while
// the last good plan and the text stay. Expected numbers come from build/native/cli/fusion-plan (--dim,
// --sweep); screenshots go to build/screenshots/dims-*.png.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { planWithCli as cli, sweepWithCli } from '../wasm/native-cli.mjs';
import { encodeState } from '../../web/src/share/url-state.js';
import { bytesFormula } from '../../web/src/present/formula.js';
import { positionOf, stepValue, scaleMax, STEPS_PER_OCTAVE } from '../../web/src/present/size-scale.js';
import { openSite, openPage, closePage, waitForPlan, shownNumbers, editorText, shot, root } from './page-helpers.mjs';
import { PAIR, SCALED, transformerWithNames } from './dims-graphs.mjs';
import { formatBytes } from '../../web/src/present/format.js';

let site;
before(async () => {
  site = await openSite();
});
after(async () => {
  await site?.close();
});

const OPTIONS = { broadcast: true, resident_sources: false };
const link = (text, options = {}) => `#${encodeState({ example: null, text, options: { ...OPTIONS, ...options } })}`;

// Waits until the plan on screen was made at name = value (and is current: not stale, no error).
const plannedAt = (page, name, value) =>
  page.waitForFunction(
    ([n, v]) => {
      const s = window.fusionPlayground?.store.getState(); // the page's script runs after the load event
      if (!s) return false;
      const p = s.planned;
      return (
        s.plan?.dims?.[n] === v &&
        !s.error &&
        p?.text === s.text &&
        JSON.stringify(p.options) === JSON.stringify(s.options)
      );
    },
    [name, value],
  );

// The numbers on the cards against the CLI's plan of the same text at those sizes.
async function assertNumbersAt(page, text, dims) {
  const plan = cli(text, { dims });
  assert.deepEqual(await shownNumbers(page), {
    bytes_unfused: plan.bytes_unfused,
    bytes_fused: plan.bytes_fused,
    speedup: `${plan.speedup_estimate.toFixed(2)}×`,
    kernels: `${plan.kernels_unfused} → ${plan.kernels_fused}`,
  });
  return plan;
}

const pageState = (page) =>
  page.evaluate(() => {
    const s = window.fusionPlayground.store.getState();
    return { dims: s.options.dims ?? {}, planDims: s.plan?.dims, error: s.error, text: s.text };
  });
const reads = (page) => page.evaluate(() => ({ ...window.fusionPlayground.planner.reads }));

test(
  'one slider per name: dragging, arrow keys and typing re-plan without reading the text again',
  { timeout: 90_000 },
  async () => {
    const page = await openPage(site, link(PAIR));
    await waitForPlan(page);
    await plannedAt(page, 'N', 8);
    const rows = page.getByTestId('sizes-rows').locator('.size-row');
    assert.deepEqual(await rows.evaluateAll((rs) => rs.map((r) => r.dataset.dim)), ['M', 'N'], 'the plan’s names');
    assert.equal(await page.getByTestId('sizes-note').textContent(), 'the grouping may change with size');
    assert.equal(await page.getByTestId('dim-value-N').inputValue(), '8');
    await assertNumbersAt(page, PAIR, {});
    const before = await reads(page);
    assert.equal(before.loads, 1, 'the worker read the text once');

    // Drag N's thumb to the right end of its track: the page follows, and the last value is planned.
    const range = page.getByTestId('dim-range-N');
    const box = await range.boundingBox();
    const y = box.y + box.height / 2;
    await range.click({ position: { x: box.width * 0.3, y: box.height / 2 } });
    await page.mouse.move(box.x + box.width * 0.3, y);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.7, y, { steps: 12 });
    await page.mouse.up();
    const dragged = (await pageState(page)).dims.N;
    assert.ok(dragged > 8, `N moved up (${dragged})`);
    await plannedAt(page, 'N', dragged);
    assert.equal(await page.getByTestId('dim-value-N').inputValue(), String(dragged));
    await assertNumbersAt(page, PAIR, { N: dragged });
    assert.match(await range.getAttribute('aria-valuetext'), new RegExp(`^N = ${dragged}$`));

    // Keys: the next value of the scale, then an octave.
    await range.focus();
    await page.keyboard.press('ArrowRight');
    const stepped = stepValue(dragged, 1, scaleMax());
    await plannedAt(page, 'N', stepped);
    await page.keyboard.press('PageDown');
    const octave = stepValue(stepped, -STEPS_PER_OCTAVE, scaleMax());
    await plannedAt(page, 'N', octave);
    await assertNumbersAt(page, PAIR, { N: octave });
    await shot(page, 'dims-sliders'); // the slider focused from the keyboard

    // An exact value typed in the field.
    await page.getByTestId('dim-value-N').fill('1000');
    await page.getByTestId('dim-value-N').press('Enter');
    await plannedAt(page, 'N', 1000);
    await assertNumbersAt(page, PAIR, { N: 1000 });

    const after = await reads(page);
    assert.equal(after.loads, 1, 'every re-plan reused the graph read at first');
    assert.ok(after.reused >= 4, `re-planned from the loaded graph ${after.reused} times`);
    assert.equal(await editorText(page), PAIR, 'the text is untouched');
    // Back to the graph's default with ↺.
    await page.locator('.size-row[data-dim="N"] .size-reset').click();
    await plannedAt(page, 'N', 8);
    assert.equal((await pageState(page)).dims.N, undefined);
    assert.deepEqual(page.problems, []);
    await closePage(page);
  },
);

test(
  'the chart draws the planner’s sweep with a marker at each size where the grouping changes',
  { timeout: 90_000 },
  async () => {
    const page = await openPage(site, link(PAIR), { width: 1440, height: 1300 });
    await waitForPlan(page);
    const rows = sweepWithCli(PAIR, {}, 'N=1:65536');
    const changes = rows.filter((r) => r.changed).map((r) => r.change_at);
    assert.deepEqual(changes, [2, 8, 9], 'the CLI finds the changes (precondition)');
    await page.getByTestId('sweep-dim').selectOption('N');
    const chart = page.getByTestId('sweep-chart');
    await chart.locator('svg .change').first().waitFor();
    assert.deepEqual(
      await chart.locator('svg .change').evaluateAll((gs) => gs.map((g) => Number(g.dataset.at))),
      changes,
    );
    assert.deepEqual(
      await chart
        .locator('svg [data-series="bytes-fused"] circle')
        .evaluateAll((cs) => cs.map((c) => [Number(c.dataset.at), Number(c.dataset.value)])),
      rows.map((r) => [r.value, r.bytes_fused]),
      'one dot per swept size, at the planner’s bytes',
    );
    assert.equal(await chart.locator('svg .cursor').getAttribute('data-value'), '8');
    assert.match(await page.getByTestId('sweep-note').textContent(), /The grouping changes at N = 2 \(1 → 2 kernels\)/);
    await page.getByTestId('sweep-rows').locator('summary').click();
    assert.equal(await page.locator('#sweep-body tr').count(), rows.length);
    assert.equal(await page.locator('#sweep-body tr.changed').count(), 3);
    await page.locator('.plan-pane').screenshot({ path: root('build/screenshots/dims-chart.png') });

    // A change marker moves the slider there: the grouping on screen is the one after the change.
    await chart.locator('svg .change[data-at="9"]').dispatchEvent('click');
    await plannedAt(page, 'N', 9);
    assert.equal((await assertNumbersAt(page, PAIR, { N: 9 })).kernels_fused, 2);
    assert.equal(await chart.locator('svg .cursor').getAttribute('data-value'), '9');
    // A row of the table, by keyboard.
    await page.locator('#sweep-body tr[data-value="8"]').focus();
    await page.keyboard.press('Enter');
    await plannedAt(page, 'N', 8);
    assert.equal((await assertNumbersAt(page, PAIR, { N: 8 })).kernels_fused, 1);
    assert.deepEqual(page.problems, []);
    await closePage(page);
  },
);

test(
  'a new size redraws the collapsed kernels’ byte labels in place, and the PNG export carries them',
  { timeout: 120_000 },
  async () => {
    const text = transformerWithNames(500); // past 300 ops: its fusion groups are drawn collapsed
    const page = await openPage(site, link(text));
    await waitForPlan(page, 1, 60_000);
    await plannedAt(page, 'seq', 512);
    // The byte line of each collapsed box, and what the plan on screen says it should be.
    const boxes = () =>
      page.evaluate(() => {
        const { graphView, store } = window.fusionPlayground;
        const { plan } = store.getState();
        return graphView.cy.nodes('.collapsed').map((b) => {
          const g = plan.groups.find((x) => x.id === b.data('group'));
          return { id: b.id(), line: graphView.boxText(b.id())?.[2], read: g.bytes_read, written: g.bytes_written };
        });
      });
    const expected = (b) => `reads ${formatBytes(b.read)} · writes ${formatBytes(b.written)}`;
    const before = await boxes();
    assert.ok(before.length >= 10, `${before.length} collapsed kernels`);
    for (const b of before) assert.equal(b.line, expected(b), b.id);
    // Mark the drawing: the same Cytoscape elements at the same places must carry the new numbers.
    const drawing = () =>
      page.evaluate(() =>
        window.fusionPlayground.graphView.cy.nodes().map((n) => `${n.id()}@${n.position('x')},${n.position('y')}`),
      );
    const placed = await drawing();
    await page.evaluate(() => {
      window.firstBox = window.fusionPlayground.graphView.cy.nodes('.collapsed')[0];
    });

    await page.getByTestId('dim-value-seq').fill('1024');
    await page.getByTestId('dim-value-seq').press('Enter');
    await plannedAt(page, 'seq', 1024);
    await page.waitForFunction(
      () =>
        window.fusionPlayground &&
        window.fusionPlayground.graphPlan() === window.fusionPlayground.store.getState().plan,
    );
    const after = await boxes();
    for (const b of after) assert.equal(b.line, expected(b), b.id);
    assert.ok(
      after.some((b, k) => b.line !== before[k].line),
      'the byte labels changed with seq',
    );
    assert.deepEqual(await drawing(), placed, 'no new layout: every box where it was');
    assert.ok(
      await page.evaluate(() => window.firstBox === window.fusionPlayground.graphView.cy.nodes('.collapsed')[0]),
      'the same elements, redrawn in place',
    );
    await shot(page, 'dims-collapsed');

    // The export draws the boxes' texts itself: dark text pixels inside the first collapsed box of the PNG.
    const ink = await page.evaluate(async () => {
      const { cy, png } = window.fusionPlayground.graphView;
      const box = cy.nodes('.collapsed')[0];
      const bb = cy.elements().boundingBox();
      const image = await createImageBitmap(await png());
      const canvas = new OffscreenCanvas(image.width, image.height);
      const ctx = canvas.getContext('2d');
      ctx.drawImage(image, 0, 0);
      const scale = image.width / bb.w;
      const p = box.position();
      const [w, h] = [box.data('w') * 0.8 * scale, box.data('h') * 0.7 * scale];
      const x = (p.x - bb.x1) * scale - w / 2;
      const y = (p.y - bb.y1) * scale - h / 2;
      const { data } = ctx.getImageData(Math.round(x), Math.round(y), Math.round(w), Math.round(h));
      let dark = 0;
      for (let k = 0; k < data.length; k += 4) if (data[k] + data[k + 1] + data[k + 2] < 240) dark += 1;
      return { dark, print: cy.nodes('.print').length };
    });
    assert.ok(ink.dark > 50, `text drawn in the exported box (${ink.dark} dark pixels)`);
    assert.equal(ink.print, 0, 'the export leaves the drawing on screen as it was');
    assert.deepEqual(page.problems, []);
    await closePage(page);
  },
);

test('the plan’s byte formulas sit beside its bytes; warnings and grouping independence are said', async () => {
  const page = await openPage(site, link(SCALED, { dims: { N: 64, Q: 3 } }));
  await waitForPlan(page);
  await plannedAt(page, 'N', 64);
  const plan = cli(SCALED, { dims: { N: 64, Q: 3 } });
  assert.equal(
    await page.getByTestId('bytes-fused-formula').textContent(),
    `= ${bytesFormula(plan.bytes_fused_formula)}`,
  );
  assert.equal(
    await page.getByTestId('bytes-unfused-formula').textContent(),
    `= ${bytesFormula(plan.bytes_unfused_formula)}`,
  );
  for (const [id, key] of [
    ['unfused', 'bytes_unfused_formula'],
    ['fused', 'bytes_fused_formula'],
    ['saved', 'bytes_saved_formula'],
  ])
    assert.equal(await page.getByTestId(`formula-${id}`).getAttribute('data-formula'), plan[key], id);
  assert.equal(plan.bytes_saved_formula, '6144*N', 'saves 6144·N B (precondition)');
  assert.equal(await page.getByTestId('formula-saved').textContent(), '6\u202f144·N\u00a0B');
  const kernel = plan.groups.find((g) => g.ops.length > 1);
  assert.equal(
    await page.locator(`#groups-body tr[data-group="${kernel.id}"] [data-testid="group-formula"]`).textContent(),
    `reads ${bytesFormula(kernel.bytes_read_formula)}writes ${bytesFormula(kernel.bytes_written_formula)}`,
  );
  await page.locator(`#groups-body tr[data-group="${kernel.id}"]`).click();
  assert.deepEqual(await page.getByTestId('sel-formula').allTextContents(), [
    ` = ${bytesFormula(kernel.bytes_read_formula)}`,
    ` = ${bytesFormula(kernel.bytes_written_formula)}`,
  ]);
  assert.equal(await page.getByTestId('sizes-note').textContent(), 'the grouping is the same for every size');
  const warning = page.getByTestId('sizes-warnings').locator('li[data-code="unused_dim"]');
  assert.equal(await warning.locator('span').textContent(), `⚠ ${plan.warnings[0].message}`);
  await shot(page, 'dims-formulas');
  await warning.getByRole('button', { name: 'Remove Q' }).click();
  await page.waitForFunction(() => !window.fusionPlayground.store.getState().plan?.warnings?.length);
  assert.equal(await page.getByTestId('sizes-warnings').isHidden(), true);
  assert.deepEqual(page.problems, []);
  await closePage(page);
});

test('the sizes ride in share links, drafts and embeds', { timeout: 90_000 }, async () => {
  const page = await openPage(site, link(SCALED));
  await waitForPlan(page);
  await page.getByTestId('dim-value-N').fill('640');
  await page.getByTestId('dim-value-N').press('Enter');
  await plannedAt(page, 'N', 640);
  await page.waitForFunction(() => /"dims":\{"N":640\}/.test(localStorage.getItem('fusion-playground:draft')));
  const numbers = await shownNumbers(page);
  const url = page.url().slice(site.server.url.length);

  const again = await openPage(site, url);
  await waitForPlan(again);
  await plannedAt(again, 'N', 640);
  assert.deepEqual(await shownNumbers(again), numbers);
  assert.equal(await again.getByTestId('dim-value-N').inputValue(), '640');
  await closePage(again);

  // The draft: the same browser context opened without a link.
  const draft = await page.context().newPage();
  await draft.goto(site.server.url);
  await plannedAt(draft, 'N', 640);
  assert.equal(await draft.getByTestId('dim-value-N').inputValue(), '640');

  // An embed with the sizes: the sliders are there, and "Open in playground" carries the size moved.
  const embed = await openPage(site, `?embed${url.slice(url.indexOf('#'))}`, { width: 900, height: 560 });
  await waitForPlan(embed);
  await plannedAt(embed, 'N', 640);
  assert.ok(await embed.getByTestId('sizes-panel').isVisible());
  await embed.getByTestId('dim-value-N').fill('32');
  await embed.getByTestId('dim-value-N').press('Enter');
  await plannedAt(embed, 'N', 32);
  await assertNumbersAt(embed, SCALED, { N: 32 });
  await embed.waitForFunction(() => document.getElementById('open-full').href.includes('#state='));
  const full = await embed.getByTestId('open-full').getAttribute('href');
  const opened = await openPage(site, full.slice(site.server.url.length));
  await plannedAt(opened, 'N', 32);
  await shot(embed, 'dims-embed');
  for (const p of [page, embed, opened]) assert.deepEqual(p.problems, []);
  await closePage(embed);
  await closePage(opened);
  await closePage(page);
});

test('<fusion-playground dims="N=64"> plans at those sizes; a malformed dims attribute is explained', async () => {
  const page = await openPage(site, 'element-demo.html', { width: 820, height: 1400 });
  await page.evaluate((text) => {
    for (const [id, dims] of [
      ['sized', 'N=64'],
      ['bad', 'N:64'],
    ]) {
      const el = document.createElement('fusion-playground');
      el.id = id;
      el.setAttribute('dims', dims);
      el.innerHTML = `<script type="application/json">${text}</script>`;
      document.body.prepend(el);
    }
  }, SCALED);
  await page.waitForFunction(() =>
    ['sized', 'bad'].every((id) => Number(document.getElementById(id).dataset.planShown) >= 1),
  );
  const plan = cli(SCALED, { dims: { N: 64 } });
  const shown = await page.evaluate(() => {
    const root = document.getElementById('sized').shadowRoot;
    return {
      fused: root.querySelector('[data-value="bytes_fused"]').title.replace(/\D/g, ''),
      formula: root.querySelector('[data-formula="bytes_fused"]').textContent,
      status: root.querySelector('.status').textContent,
    };
  });
  assert.deepEqual(shown, {
    fused: String(plan.bytes_fused),
    formula: `= ${bytesFormula(plan.bytes_fused_formula)}`,
    status: shown.status,
  });
  assert.match(shown.status, / · N = 64$/);
  assert.match(
    await page.evaluate(() => document.getElementById('bad').shadowRoot.querySelector('.message').textContent),
    /dims="N:64": .*not NAME=VALUE/,
  );
  // Changing the attribute re-plans.
  await page.evaluate(() => document.getElementById('sized').setAttribute('dims', 'N=2'));
  await page.waitForFunction(() =>
    / · N = 2$/.test(document.getElementById('sized').shadowRoot.querySelector('.status').textContent),
  );
  await page.locator('#sized').screenshot({ path: root('build/screenshots/dims-element.png') });
  assert.deepEqual(page.problems, []);
  await closePage(page);
});

test('a size that does not plan is explained; the last good plan and the text stay', { timeout: 90_000 }, async () => {
  const page = await openPage(site, link(SCALED));
  await waitForPlan(page);
  await plannedAt(page, 'N', 8);
  const good = await shownNumbers(page);
  const field = page.getByTestId('dim-value-N');
  const error = page.getByTestId('sizes-error');
  const cases = [
    ['-3', /dimension 'N' is bound to -3; a value is a whole number from 0 to 2\^53 - 1/],
    ['2.5', /dimension 'N' is bound to 2.5/],
    [String(2 ** 50), /exceeds 2\^53 - 1 bytes.*with N = 1125899906842624|with N = 1125899906842624.*2\^53/],
  ];
  for (const [typed, message] of cases) {
    await field.fill(typed);
    await field.press('Enter');
    await error.waitFor();
    assert.match(await error.textContent(), message, typed);
    assert.match(await error.textContent(), /— showing the plan at N = 8\.$/);
    assert.equal(await field.getAttribute('aria-invalid'), typed.includes('.') || typed < 0 ? 'true' : 'false');
    assert.deepEqual(await shownNumbers(page), good, 'the last good numbers stay');
    assert.equal(
      await page.getByTestId('dim-range-N').inputValue(),
      String(positionOf(8, scaleMax())),
      'the slider stays at the last good size',
    );
    assert.match(await page.getByTestId('status').textContent(), /^Not planned: .* — showing the last valid plan\.$/);
    assert.equal(await editorText(page), SCALED, 'the text is the person’s');
    if (!typed.startsWith('1'))
      assert.equal(await page.locator('.cm-lintRange-error').count(), 0, 'a bad option is not marked in the JSON');
    await shot(page, `dims-error-${typed.replace('.', '_')}`);
  }
  await field.fill('16');
  await field.press('Enter');
  await plannedAt(page, 'N', 16);
  assert.equal(await error.isHidden(), true);

  // A name with no value: the text loses its default. The panel offers a field for it.
  const unbound = SCALED.replace('{"dims": {"N": 8}, ', '{');
  await page.evaluate((text) => window.fusionPlayground.store.dispatch({ type: 'set-text', text }), unbound);
  await page.evaluate(() => window.fusionPlayground.store.dispatch({ type: 'set-dim', name: 'N', value: null }));
  await error.waitFor();
  assert.match(await error.textContent(), /dimension 'N' has no value: op 0 \('x'\) uses it/);
  assert.equal(await field.inputValue(), '');
  assert.equal(await field.getAttribute('aria-invalid'), 'true');
  assert.equal(
    await page.getByTestId('graph-overlay').textContent(),
    'A size has no value — the graph shows the last valid plan.',
  );
  assert.equal((await pageState(page)).planDims.N, 16, 'the last good plan stays');
  await shot(page, 'dims-error-unbound');
  await field.fill('4');
  await field.press('Enter');
  await plannedAt(page, 'N', 4);
  await assertNumbersAt(page, unbound, { N: 4 });
  assert.deepEqual(page.problems, []);
  await closePage(page);
});
