// page-numerics.test.mjs — numerics on the page (docs/design.md §18): the Numerics switch asks the planner for
// notes and the evaluator; each kernel with notes gets a badge; the plan pane's Numerics section shows the
// evaluator's figures (the same as the native CLI's), the notes in words and the ops not evaluated; Eager
// parity splits the kernels at rounding points, says what that costs, and shows zero differences.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { runCli } from '../wasm/native-cli.mjs';
import { openSite, openPage, waitForPlan, shot, root } from './page-helpers.mjs';

let site;
before(async () => {
  site = await openSite();
});
after(async () => {
  await site?.close();
});

const graphText = readFileSync(root('tests/core/data/f16_chain.json'), 'utf8');

test(
  'Numerics shows badges, the notes and the evaluator’s figures; Eager parity what it costs',
  { timeout: 90_000 },
  async () => {
    const cli = JSON.parse(runCli(graphText, {}, ['--numerics']).stdout);
    const parityCli = JSON.parse(runCli(graphText, {}, ['--eager-parity']).stdout);
    const page = await openPage(site);
    await waitForPlan(page);
    const shown = await waitForPlan(page);
    await page.evaluate((t) => window.fusionPlayground.store.dispatch({ type: 'set-text', text: t }), graphText);
    await waitForPlan(page, shown + 1);
    assert.equal(await page.getByTestId('numerics-section').isVisible(), false, 'off by default');
    assert.equal(await page.getByTestId('numerics-badge').count(), 0);

    // Keyboard: focus the select and choose with the arrow key.
    await page.getByTestId('opt-numerics').focus();
    await page.keyboard.press('ArrowDown');
    await page.getByTestId('numerics-section').waitFor({ state: 'visible' });
    await page.getByTestId('numerics-badge').first().waitFor();
    assert.equal(await page.getByTestId('numerics-badge').count(), 1);
    assert.equal(await page.getByTestId('numerics-badge').textContent(), '4 notes: rounding dropped, FMA');
    const notes = await page.getByTestId('numerics-notes').locator('li').allTextContents();
    const expected = cli.groups.flatMap((g) => g.numerics.map((n) => n.message));
    assert.equal(notes.length, expected.length);
    expected.forEach((message, k) => assert.ok(notes[k].endsWith(message), notes[k]));

    // The evaluator's rows carry the planner's exact figures (in their tooltips) for every output.
    const rows = page.getByTestId('numerics-outputs').locator('tbody tr');
    assert.equal(await rows.count(), cli.numerics.outputs.length);
    for (const [k, o] of cli.numerics.outputs.entries()) {
      const cells = rows.nth(k).locator('td');
      assert.equal(await rows.nth(k).getAttribute('data-op'), String(o.op));
      assert.equal(await cells.nth(0).textContent(), `${o.op === 5 ? 'r' : 'o'} ${o.dtype}`);
      assert.equal(Number(await cells.nth(2).getAttribute('title')), o.max_abs);
      assert.equal(Number(await cells.nth(3).getAttribute('title')), o.max_rel);
      assert.equal(Number(await cells.nth(4).getAttribute('title')), o.max_ulp);
      assert.equal(await cells.nth(4).textContent(), o.max_ulp.toLocaleString('en-US'));
    }
    assert.ok(cli.numerics.outputs[0].max_ulp > 0);
    assert.match(
      await page.getByTestId('numerics-skipped').textContent(),
      /1 op not evaluated.*opaque is not evaluated/s,
    );
    await shot(page, 'numerics');

    // Clicking a note selects its kernel.
    await page.getByTestId('numerics-notes').locator('li').first().click();
    const selection = await page.evaluate(() => window.fusionPlayground.store.getState().selection);
    assert.deepEqual(selection, { kind: 'group', id: 1 });

    // Eager parity: kernels split at every rounding point (reason numerics), its cost, zero differences.
    await page.getByTestId('opt-numerics').selectOption('parity');
    await page.getByTestId('numerics-parity').waitFor({ state: 'visible' });
    const cost = String(parityCli.numerics.parity_cost_bytes).replace(/\B(?=(\d{3})+(?!\d))/g, '\u202f');
    assert.equal(
      await page.getByTestId('numerics-parity').textContent(),
      `Eager parity: every rounding point kept. It costs +${cost} B against the same plan without it.`,
    );
    assert.match(await page.getByTestId('numerics-parity').textContent(), /65[\s,\u2009\u202f]?536/);
    assert.equal(await page.getByTestId('numerics-badge').count(), 0);
    const refused = parityCli.edges.filter((e) => e.reason === 'numerics').length;
    assert.equal(refused, 3); // a -> b, b -> m, m -> d
    assert.equal(await page.locator('[data-reason="numerics"]').count(), refused);
    const ulps = await page.getByTestId('numerics-outputs').locator('tbody tr td:nth-child(5)').allTextContents();
    assert.deepEqual(ulps, ['0', '0']);
    await shot(page, 'numerics-parity');
    assert.deepEqual(page.problems, []);
  },
);
