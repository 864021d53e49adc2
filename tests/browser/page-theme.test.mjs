// page-theme.test.mjs — the light and dark themes: ?theme= and the top bar's picker (remembered), the system's
// prefers-color-scheme by default; every visible text ≥ 4.5:1 on its background and no serious or critical
// axe-core violation, in both themes at 1440, 1280 and 390 px (the JSON box, the plan panel and an open menu
// included); the graph repaints in the theme's colours. The element's theme attribute, also changed after a
// drawing; the light ?embed's ?theme= and system setting. Screenshots: build/screenshots/page-<theme>-<width>.png,
// embed-dark-720/390.png, embed-light-720.png.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openSite, openPage, closePage, waitForPlan, shot } from './page-helpers.mjs';
import { axeViolations, lowContrastTexts } from './theme-helpers.mjs';

let site;
before(async () => {
  site = await openSite();
});
after(async () => {
  await site?.close();
});

const themeOf = (page) => page.evaluate(() => document.documentElement.dataset.theme);
const graphInk = (page) =>
  page.evaluate(() => window.fusionPlayground.graphView.cy.$('node.elementwise').first().style('color'));

test(
  'the page follows the system by default, ?theme= wins, and the picker is remembered',
  { timeout: 90_000 },
  async () => {
    const context = await site.browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme: 'dark' });
    const page = await context.newPage();
    await page.goto(`${site.server.url}#example=diamond`);
    await waitForPlan(page);
    assert.equal(await themeOf(page), 'dark'); // auto: the system says dark
    assert.equal(await page.getByTestId('theme').inputValue(), 'auto');
    assert.equal(await graphInk(page), 'rgb(230,237,243)');
    await page.emulateMedia({ colorScheme: 'light' });
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'light');
    assert.equal(await graphInk(page), 'rgb(31,35,40)');
    // The picker, by keyboard: focus it and choose Dark; the graph repaints, the choice survives a reload.
    await page.getByTestId('theme').focus();
    await page.getByTestId('theme').selectOption('dark');
    assert.equal(await themeOf(page), 'dark');
    assert.equal(await graphInk(page), 'rgb(230,237,243)');
    assert.equal(await page.evaluate(() => getComputedStyle(document.body).backgroundColor), 'rgb(13, 17, 23)');
    await page.reload();
    await waitForPlan(page);
    assert.equal(await themeOf(page), 'dark');
    assert.equal(await page.getByTestId('theme').inputValue(), 'dark');
    // ?theme=light wins over the remembered choice, for this visit only.
    await page.goto(`${site.server.url}?theme=light#example=diamond`);
    await waitForPlan(page);
    assert.equal(await themeOf(page), 'light');
    assert.equal(await page.evaluate(() => localStorage.getItem('fusion-playground.theme')), 'dark');
    await context.close();
  },
);

for (const theme of ['light', 'dark']) {
  for (const width of [1440, 1280, 390]) {
    test(
      `${theme} at ${width} px: every text reads at 4.5:1 and axe finds nothing serious`,
      { timeout: 120_000 },
      async () => {
        const page = await openPage(site, `?theme=${theme}#example=transformer-mlp`, {
          width,
          height: width < 500 ? 844 : 900,
        });
        await waitForPlan(page);
        assert.equal(await themeOf(page), theme);
        // The JSON box's editor loads after the first plan; the selection panel shows a kernel.
        await page.locator('.cm-content').waitFor({ state: 'attached', timeout: 15_000 });
        await page.evaluate(() =>
          window.fusionPlayground.store.dispatch({ type: 'select', target: { kind: 'group', id: 6 } }),
        );
        await page.waitForTimeout(300);
        await shot(page, `page-${theme}-${width}`);
        const tabs = width < 500 ? ['graph', 'json', 'plan'] : [null];
        for (const tab of tabs) {
          if (tab) await page.getByTestId(`tab-${tab}`).click();
          assert.deepEqual(await lowContrastTexts(page), [], `low contrast${tab ? ` (${tab} tab)` : ''}`);
        }
        assert.deepEqual(await axeViolations(page), []);
        // An open menu reads as well.
        await page.locator('#export-menu summary').click();
        assert.deepEqual(await lowContrastTexts(page), [], 'low contrast in the Export menu');
        assert.deepEqual(page.problems, []);
        await closePage(page);
      },
    );
  }
}

test(
  'the <fusion-playground> element takes theme="dark": its texts and its SVG drawing in dark colours',
  { timeout: 60_000 },
  async () => {
    const page = await openPage(site, 'element-demo.html', { width: 900, height: 700 });
    await page.evaluate(() => {
      document.body.innerHTML =
        '<fusion-playground id="dark" example="transformer-mlp" theme="dark"></fusion-playground>' +
        '<fusion-playground id="light" example="transformer-mlp"></fusion-playground>';
    });
    await page.waitForFunction(() =>
      ['dark', 'light'].every((id) => Number(document.getElementById(id).dataset.planShown) >= 1),
    );
    const look = (id) =>
      page.evaluate((id) => {
        const el = document.getElementById(id);
        const text = el.shadowRoot.querySelector('g.op:not(.source):not(.barrier) text');
        return { ground: getComputedStyle(el).backgroundColor, opText: getComputedStyle(text).fill };
      }, id);
    assert.deepEqual(await look('dark'), { ground: 'rgb(22, 27, 34)', opText: 'rgb(230, 237, 243)' });
    assert.deepEqual(await look('light'), { ground: 'rgb(255, 255, 255)', opText: 'rgb(31, 35, 40)' });
    for (const host of ['#dark', '#light']) assert.deepEqual(await lowContrastTexts(page, { host }), [], host);
    // The check can fail: a grey too light for its ground is caught.
    await page.evaluate(() => {
      const s = document.createElement('style');
      s.textContent = '.label { color: #30363d !important; }';
      document.getElementById('dark').shadowRoot.append(s);
    });
    assert.ok((await lowContrastTexts(page, { host: '#dark' })).some((t) => t.includes('label')));
    // A theme set or removed after the first drawing repaints the drawing at once, without planning again.
    const shown = () =>
      page.evaluate(() => ['dark', 'light'].map((id) => document.getElementById(id).dataset.planShown));
    const before = await shown();
    await page.evaluate(() => {
      document.getElementById('light').setAttribute('theme', 'dark');
      document.getElementById('dark').removeAttribute('theme');
    });
    assert.equal((await look('light')).opText, 'rgb(230, 237, 243)');
    assert.equal((await look('dark')).opText, 'rgb(31, 35, 40)');
    assert.deepEqual(await shown(), before, 'a theme change does not plan again');
    await closePage(page);
  },
);

// The light ?embed (embed/embed.js, not the page's main.js) takes ?theme= and otherwise the system's setting;
// its SVG drawing, cards, legend and explanation are in the theme's colours, every text ≥ 4.5:1.
const embedOpText = (page) =>
  page.evaluate(() => getComputedStyle(document.querySelector('#graph g.op:not(.source):not(.barrier) text')).fill);
for (const width of [720, 390]) {
  test(`the light ?embed&theme=dark at ${width} px: dark colours, readable`, { timeout: 60_000 }, async () => {
    const page = await openPage(site, '?embed&theme=dark#example=transformer-mlp', { width, height: 480 });
    await waitForPlan(page);
    assert.equal(await page.evaluate(() => window.fusionPlayground.light), true, 'the light embed');
    assert.equal(await themeOf(page), 'dark');
    assert.equal(await embedOpText(page), 'rgb(230, 237, 243)');
    await page.locator('#graph svg [data-edge]').first().focus();
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => /→/.test(document.getElementById('selection-body').textContent));
    await shot(page, `embed-dark-${width}`);
    assert.deepEqual(await lowContrastTexts(page), []);
    assert.deepEqual(page.problems, []);
    await closePage(page);
  });
}

test(
  'the light ?embed follows the system: dark, then light live, the drawing repainted',
  { timeout: 60_000 },
  async () => {
    const page = await openPage(site, '', { width: 720, height: 480 });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto(`${site.server.url}?embed#example=transformer-mlp`);
    await waitForPlan(page);
    assert.equal(await themeOf(page), 'dark');
    assert.equal(await embedOpText(page), 'rgb(230, 237, 243)');
    await page.emulateMedia({ colorScheme: 'light' });
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'light');
    assert.equal(await embedOpText(page), 'rgb(31, 35, 40)');
    await shot(page, 'embed-light-720');
    assert.deepEqual(await lowContrastTexts(page), []);
    assert.deepEqual(page.problems, []);
    await closePage(page);
  },
);
