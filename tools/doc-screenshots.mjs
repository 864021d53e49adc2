// doc-screenshots.mjs — writes the documentation images from the built site (dist/, `npm run build` first):
//   docs/screenshot.png  the main view (default example, a group selected), 1440×900
//   docs/embed.png       embed mode (?embed, attention example), 720×480
//   docs/element.png     the <fusion-playground> element demo page (dist/element-demo.html), 820 px wide
//   docs/compare.png     the compare view: XLA-style against TVM-style on matmul + bias + relu, 1440×900
// Run: node tools/doc-screenshots.mjs [main] [embed] [element] [compare] (default: all four). Uses Debian's
// Chromium through tests/browser/chromium.mjs; never downloads a browser. Not part of `npm test` (the tests
// write their own screenshots to build/screenshots/).
import { fileURLToPath } from 'node:url';
import { encodeState } from '../web/src/share/url-state.js';
import { EPILOGUE } from '../tests/browser/strategy-graphs.mjs';
import { openSite, openPage, waitForPlan } from '../tests/browser/page-helpers.mjs';

const doc = (name) => fileURLToPath(new URL(`../docs/${name}`, import.meta.url));
const wanted = process.argv.slice(2);
const want = (name) => wanted.length === 0 || wanted.includes(name);
const site = await openSite();
const pages = [];
try {
  if (want('main')) {
    const main = await openPage(site, '#example=transformer-mlp');
    pages.push(main);
    await waitForPlan(main);
    await main.locator('#groups-body tr').filter({ hasText: 'act' }).first().click();
    await main.waitForTimeout(300);
    await main.screenshot({ path: doc('screenshot.png') });
  }

  if (want('embed')) {
    const embed = await openPage(site, '?embed#example=attention-scores', { width: 720, height: 480 });
    pages.push(embed);
    await waitForPlan(embed);
    await embed.waitForTimeout(300);
    await embed.screenshot({ path: doc('embed.png') });
  }

  if (want('element')) {
    const element = await openPage(site, 'element-demo.html', { width: 820, height: 900 });
    pages.push(element);
    await element.waitForFunction(() =>
      [...document.querySelectorAll('fusion-playground')].every((e) => Number(e.dataset.planShown) >= 1),
    );
    await element.waitForTimeout(300);
    await element.locator('#inline').screenshot({ path: doc('element.png') });
  }

  if (want('compare')) {
    const state = {
      example: null,
      text: EPILOGUE,
      options: { broadcast: true, resident_sources: false },
      compare: ['xla', 'tvm'],
    };
    const compare = await openPage(site, `#${encodeState(state)}`);
    pages.push(compare);
    await compare.waitForFunction(
      () => Number(document.querySelector('[data-testid="compare-pane"]')?.dataset.compareShown) >= 1,
      null,
      { timeout: 30_000 },
    );
    await compare.locator('[data-testid="compare-diff"] > li[data-edge]').first().click();
    await compare.waitForTimeout(300);
    await compare.screenshot({ path: doc('compare.png') });
  }
  for (const page of pages) if (page.problems.length) console.error(page.problems.join('\n'));
  console.log(
    `wrote ${['main', 'embed', 'element', 'compare']
      .filter(want)
      .map((n) => `docs/${n === 'main' ? 'screenshot' : n}.png`)
      .join(', ')}`,
  );
} finally {
  await site.close();
}
