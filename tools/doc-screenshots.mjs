// doc-screenshots.mjs — writes the documentation images from the built site (dist/, `npm run build` first):
//   docs/screenshot.png  the main view (default example, a group selected), 1440×900
//   docs/embed.png       embed mode (?embed, attention example), 720×480
//   docs/element.png     the <fusion-playground> element demo page (dist/element-demo.html), 820 px wide
// Run: node tools/doc-screenshots.mjs. Uses Debian's Chromium through tests/browser/chromium.mjs; never
// downloads a browser. Not part of `npm test` (the tests write their own screenshots to build/screenshots/).
import { fileURLToPath } from 'node:url';
import { openSite, openPage, waitForPlan } from '../tests/browser/page-helpers.mjs';

const doc = (name) => fileURLToPath(new URL(`../docs/${name}`, import.meta.url));
const site = await openSite();
try {
  const main = await openPage(site, '#example=transformer-mlp');
  await waitForPlan(main);
  await main.locator('#groups-body tr').filter({ hasText: 'act' }).first().click();
  await main.waitForTimeout(300);
  await main.screenshot({ path: doc('screenshot.png') });

  const embed = await openPage(site, '?embed#example=attention-scores', { width: 720, height: 480 });
  await waitForPlan(embed);
  await embed.waitForTimeout(300);
  await embed.screenshot({ path: doc('embed.png') });

  const element = await openPage(site, 'element-demo.html', { width: 820, height: 900 });
  await element.waitForFunction(() => [...document.querySelectorAll('fusion-playground')].every((e) => Number(e.dataset.planShown) >= 1));
  await element.waitForTimeout(300);
  await element.locator('#inline').screenshot({ path: doc('element.png') });
  for (const page of [main, embed, element]) if (page.problems.length) console.error(page.problems.join('\n'));
  console.log('wrote docs/screenshot.png, docs/embed.png, docs/element.png');
} finally {
  await site.close();
}
