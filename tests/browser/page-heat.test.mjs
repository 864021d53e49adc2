// page-heat.test.mjs — colouring ops by bytes moved: every op's fill comes from the planner's
// op_bytes_unfused (the same numbers the native CLI prints), the legend lists them, and B toggles it.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { runCli } from '../wasm/native-cli.mjs';
import { openSite, openPage, closePage, waitForPlan, shot, root } from './page-helpers.mjs';

let site;
before(async () => {
  site = await openSite();
});
after(async () => {
  await site?.close();
});

// Per op: the colour it is filled with, and whether the bytes colouring is on for it.
const opFills = (page) =>
  page.evaluate(() => {
    const { cy } = window.fusionPlayground.graphView;
    return cy
      .nodes('[op]')
      .map((n) => ({ op: n.data('op'), heat: n.hasClass('heat'), fill: n.style('background-color') }));
  });

test(
  '“Bytes moved” fills each op by the planner’s op_bytes_unfused, with a legend of those numbers',
  { timeout: 60_000 },
  async () => {
    const cli = JSON.parse(runCli(readFileSync(root('examples/resnet-basic-block.json'), 'utf8')).stdout);
    assert.equal(cli.op_bytes_unfused.length, cli.op_group.length);
    const page = await openPage(site, '#example=resnet-basic-block');
    await waitForPlan(page);
    assert.equal(await page.getByTestId('heat-legend').isVisible(), false);
    assert.ok(
      (await opFills(page)).every((n) => !n.heat),
      'off by default',
    );

    await page.getByTestId('color-bytes').click();
    assert.equal(await page.getByTestId('color-bytes').getAttribute('aria-pressed'), 'true');
    const fills = await opFills(page);
    assert.ok(
      fills.every((n) => n.heat),
      'every op is coloured',
    );
    // Ops the planner says move the same bytes share a colour; the op moving the most is darkest of all.
    const fillOf = new Map(fills.map((n) => [n.op, n.fill]));
    const byBytes = new Map();
    cli.op_bytes_unfused.forEach((b, i) => byBytes.set(b, [...(byBytes.get(b) ?? []), fillOf.get(i)]));
    for (const [b, colours] of byBytes) assert.equal(new Set(colours).size, 1, `ops moving ${b} B share one colour`);
    const max = Math.max(...cli.op_bytes_unfused);
    const min = Math.min(...cli.op_bytes_unfused);
    assert.notEqual(fillOf.get(cli.op_bytes_unfused.indexOf(max)), fillOf.get(cli.op_bytes_unfused.indexOf(min)));

    // The legend's tooltips give the exact extremes of the planner's numbers, and count every op once.
    const legend = page.getByTestId('heat-legend');
    assert.equal(await legend.isVisible(), true);
    const titles = await legend.locator('[data-bin]').evaluateAll((els) => els.map((e) => e.title));
    const digits = (s) => s.replace(/[^\d]/g, '');
    assert.equal(
      titles.reduce((n, t) => n + Number(t.match(/^(\d+) op/)[1]), 0),
      cli.op_group.length,
    );
    assert.equal(digits(titles[0].split(':')[1].split(' to ')[0]), String(min));
    assert.equal(digits(titles.at(-1).split(':')[1].split(' to ').at(-1)), String(max));
    await shot(page, 'bytes-moved');

    // The selected op says how many bytes it moves (the planner's number, exactly).
    const pos = await page.evaluate(() => window.fusionPlayground.screenPosition(0));
    await page.mouse.click(pos.x, pos.y);
    const exact = await page.getByTestId('op-bytes').locator('strong').getAttribute('title');
    assert.equal(digits(exact), String(cli.op_bytes_unfused[0]));

    await page.locator('#graph').focus();
    await page.keyboard.press('b');
    assert.equal(await page.getByTestId('color-bytes').getAttribute('aria-pressed'), 'false');
    assert.ok(
      (await opFills(page)).every((n) => !n.heat),
      'B turns it off',
    );
    assert.deepEqual(page.problems, []);
    await closePage(page);
  },
);
