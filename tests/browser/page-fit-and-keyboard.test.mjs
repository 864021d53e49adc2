// page-layout.test.mjs — the plan panel never cuts off a number (the group table at common widths), and
// every main action is labelled and reachable with the keyboard.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { cutOffCells, openSite, openPage, closePage, waitForPlan } from './page-helpers.mjs';

let site;
before(async () => {
  site = await openSite();
});
after(async () => {
  await site?.close();
});

for (const width of [1440, 1280, 1120]) {
  test(`the group table fits its pane at ${width} px: no byte column is cut off`, { timeout: 60_000 }, async () => {
    const page = await openPage(site, '#example=resnet-basic-block', { width, height: 900 });
    await waitForPlan(page);
    assert.deepEqual(await cutOffCells(page), []);
    await closePage(page);
  });
}

// The main actions, by id: each must have an accessible name and be reached by Tab.
const ACTIONS = [
  'examples-menu',
  'opt-strategy',
  'options-menu', // Broadcast rule, Resident sources, Hardware (page-strategies.test.mjs opens it by keyboard)
  'theme',
  'copy-link',
  'export-menu', // also holds Embed

  'add-op',
  'connect-mode',
  'undo',
  'fit',
  'color-bytes',
  'find',
  'graph',
];

test('every main action has a label and is reached with Tab', { timeout: 60_000 }, async () => {
  const page = await openPage(site, '#example=diamond');
  await waitForPlan(page);
  await page.evaluate(() =>
    window.fusionPlayground.store.dispatch({ type: 'set-option', key: 'broadcast', value: true }),
  );
  const names = await page.evaluate(
    (ids) =>
      Object.fromEntries(
        ids.map((id) => {
          const el = document.getElementById(id);
          const target = el.tagName === 'DETAILS' ? el.querySelector('summary') : el;
          const label = target.getAttribute('aria-label') || target.labels?.[0]?.textContent || target.textContent;
          return [id, label.trim()];
        }),
      ),
    ACTIONS,
  );
  for (const [id, name] of Object.entries(names)) assert.ok(name.length > 1, `${id} has no accessible name`);
  const reached = new Set();
  for (let i = 0; i < 60 && !ACTIONS.every((id) => reached.has(id)); i++) {
    await page.keyboard.press('Tab');
    reached.add(
      await page.evaluate(() => {
        const el = document.activeElement;
        return el.tagName === 'SUMMARY' ? el.parentElement.id : el.id;
      }),
    );
  }
  assert.deepEqual(
    ACTIONS.filter((id) => !reached.has(id)),
    [],
    'not reachable with Tab',
  );
  // Enter on a focused toolbar button acts (the bytes colouring toggles).
  await page.locator('#color-bytes').focus();
  await page.keyboard.press('Enter');
  assert.equal(await page.locator('#color-bytes').getAttribute('aria-pressed'), 'true');
  assert.deepEqual(page.problems, []);
  await closePage(page);
});
