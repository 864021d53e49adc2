// page-phone.test.mjs — narrow layouts: the top bar is one row at 1280 and 1440 px (the rarely used options in
// the Options menu, Embed in the Export menu); at phone width (390 px) the page is one column behind Graph,
// JSON and Plan tabs (a keyboard tablist) with no sideways scrolling; the main flows work by keyboard alone.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openSite, openPage, closePage, waitForPlan } from './page-helpers.mjs';

let site;
before(async () => {
  site = await openSite();
});
after(async () => {
  await site?.close();
});

// The top bar's controls: how many rows their tops fall on, and the bar's height.
const topbarRows = (page) =>
  page.evaluate(() => {
    const bar = document.querySelector('.topbar');
    const tops = [...bar.querySelectorAll('.brand, .btn, select')]
      .filter((el) => el.getBoundingClientRect().width > 0 && !el.closest('.menu-list'))
      .map((el) => Math.round(el.getBoundingClientRect().top / 20));
    return { rows: new Set(tops).size, height: bar.getBoundingClientRect().height };
  });

for (const width of [1440, 1280]) {
  test(`at ${width} px the top bar is one row with room to spare`, { timeout: 60_000 }, async () => {
    const page = await openPage(site, '#example=transformer-mlp', { width, height: 900 });
    await waitForPlan(page);
    const { rows, height } = await topbarRows(page);
    assert.equal(rows, 1);
    assert.ok(height < 70, `top bar ${height} px tall`);
    // The Optimal switch (the plan search's, placed next to the Strategy picker) sits in that one row, and some
    // room is still left between the brand and the first control.
    const { spare, optimal, bar } = await page.evaluate(() => {
      const brand = document.querySelector('.brand').getBoundingClientRect();
      const first = document.querySelector('#open-file').getBoundingClientRect();
      const box = document.querySelector('[data-testid="opt-optimal"]').getBoundingClientRect();
      const top = document.querySelector('.topbar').getBoundingClientRect();
      return { spare: first.left - brand.right, optimal: box, bar: top };
    });
    assert.ok(optimal.width > 0 && optimal.top >= bar.top && optimal.bottom <= bar.bottom, 'Optimal in the top bar');
    assert.ok(spare >= 40, `${spare} px to spare`);
    await closePage(page);
  });
}

for (const theme of ['light', 'dark']) {
  test(
    `at 390 px (${theme}) the page is one column behind tabs, with no sideways scrolling`,
    { timeout: 60_000 },
    async () => {
      const page = await openPage(site, `?theme=${theme}#example=transformer-mlp`, { width: 390, height: 844 });
      await waitForPlan(page);
      const visible = () =>
        page.evaluate(() =>
          ['editor-pane', 'graph-pane', 'plan-pane'].filter((id) => document.getElementById(id).offsetWidth > 0),
        );
      const noSideways = async (where) => {
        const { sw, iw } = await page.evaluate(() => ({ sw: document.scrollingElement.scrollWidth, iw: innerWidth }));
        assert.ok(sw <= iw, `${where}: scrollWidth ${sw} > ${iw}`);
      };
      assert.deepEqual(await visible(), ['graph-pane']);
      await noSideways('graph');
      // The tabs by keyboard: ArrowRight picks JSON, then Plan; only the picked tab is in the Tab order.
      await page.getByTestId('tab-graph').focus();
      await page.keyboard.press('ArrowRight');
      assert.deepEqual(await visible(), ['editor-pane']);
      assert.equal(await page.getByTestId('tab-json').getAttribute('aria-selected'), 'true');
      await noSideways('json');
      await page.keyboard.press('ArrowRight');
      assert.deepEqual(await visible(), ['plan-pane']);
      assert.equal(await page.evaluate(() => document.activeElement.id), 'tab-plan');
      await noSideways('plan');
      // Every pane fills the width without overflowing it.
      const wide = await page.evaluate(() =>
        [...document.querySelectorAll('body *')]
          .filter((el) => el.getBoundingClientRect().right > innerWidth + 1 && el.offsetWidth > 0)
          .filter((el) => !el.closest('.menu-list, .cm-editor, .panel-scroll, .graph'))
          .map((el) => el.id || el.className),
      );
      assert.deepEqual(wide, []);
      await page.keyboard.press('Home');
      assert.deepEqual(await visible(), ['graph-pane']);
      // The graph is drawn at the pane's size after switching back.
      const box = await page.evaluate(() => window.fusionPlayground.graphView.cy.width());
      assert.ok(box > 300);
      assert.deepEqual(page.problems, []);
      await closePage(page);
    },
  );
}

test(
  'keyboard only: open an example, select a kernel, read why an edge was not fused, copy a link',
  { timeout: 60_000 },
  async () => {
    const page = await openPage(site, '#example=diamond', { width: 1280, height: 900 });
    await page
      .context()
      .grantPermissions(['clipboard-read', 'clipboard-write'], { origin: site.server.url.replace(/\/$/, '') });
    const n = await waitForPlan(page);
    const tabTo = async (pred, what) => {
      for (let i = 0; i < 80; i++) {
        await page.keyboard.press('Tab');
        if (await page.evaluate(pred)) return;
      }
      assert.fail(`Tab never reached ${what}`);
    };
    // Open the Examples menu with Enter and pick an example.
    await tabTo(() => document.activeElement.closest('#examples-menu') !== null, 'the Examples menu');
    await page.keyboard.press('Enter');
    await tabTo(() => document.activeElement.dataset.example === 'transformer-mlp', 'the MLP example');
    await page.keyboard.press('Enter');
    await waitForPlan(page, n + 1);
    assert.equal(await page.evaluate(() => window.fusionPlayground.store.getState().example), 'transformer-mlp');
    // Select a kernel in the group table (a row, by Enter); the selection panel says which, politely announced.
    await tabTo(() => document.activeElement.matches('#groups-body tr[data-group]:not(.source-row)'), 'a kernel row');
    await page.keyboard.press('Enter');
    assert.equal(await page.evaluate(() => window.fusionPlayground.store.getState().selection?.kind), 'group');
    assert.equal(await page.locator('#selection-panel').getAttribute('aria-live'), 'polite');
    // Why not fused: a reason in the list, by Enter; the selection panel explains the edge.
    await tabTo(() => document.activeElement.matches('#reasons li'), 'a reason');
    await page.keyboard.press('Enter');
    assert.equal(await page.evaluate(() => window.fusionPlayground.store.getState().selection?.kind), 'edge');
    assert.match(await page.locator('#selection-body').textContent(), /not fused|fus/i);
    // Copy link: by keyboard, the notice (role=alert) says so.
    await page.locator('#copy-link').focus();
    await page.keyboard.press('Enter');
    await page.getByTestId('notice').waitFor();
    assert.equal(await page.getByTestId('notice').getAttribute('role'), 'alert');
    assert.match(await page.evaluate(() => navigator.clipboard.readText()), /#example=transformer-mlp/);
    assert.deepEqual(page.problems, []);
    await closePage(page);
  },
);
