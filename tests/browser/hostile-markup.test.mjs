// hostile-markup.test.mjs — op names, kinds, example ids and error messages that carry HTML or script are
// shown as text: the literal markup is visible and nothing runs (window.__pwned stays undefined, no <img>
// from the input appears in the document, and the page never requests the image "x").
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import LZString from 'lz-string';
import { closePage, openSite, waitForPlan } from './page-helpers.mjs';

const IMG = '<img src=x onerror=window.__pwned=1>';
const SCRIPT = '<script>window.__pwned=2</script>';
const link = (payload) => `#state=1.${LZString.compressToEncodedURIComponent(JSON.stringify(payload))}`;

let site;
before(async () => {
  site = await openSite();
});
after(async () => {
  await site?.close();
});

// Opens a link, counting requests for the injected image.
async function openWatched(hash) {
  const context = await site.browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  const requests = [];
  page.on('request', (r) => {
    if (/\/x$/.test(new URL(r.url()).pathname)) requests.push(r.url());
  });
  await page.goto(site.server.url + hash);
  return { page, requests };
}

async function assertInert(page, requests) {
  await page.waitForTimeout(300); // let any injected onerror handler fire (it must not exist)
  assert.equal(await page.evaluate(() => window.__pwned), undefined, 'injected script ran');
  assert.equal(await page.locator('img[src="x"]').count(), 0, 'an <img> from the input is in the document');
  assert.equal(await page.locator('script:text("__pwned")').count(), 0, 'a <script> from the input is in the document');
  assert.deepEqual(requests, []);
}

test(
  'op names with HTML are shown as text in the groups, reasons, selection and status',
  { timeout: 60_000 },
  async () => {
    const text = JSON.stringify(
      {
        ops: [
          { name: IMG, kind: 'input', shape: [8], dtype: 'f32' },
          { name: SCRIPT, kind: 'relu', inputs: [IMG], shape: [8], dtype: 'f32' },
          { name: `${IMG}2`, kind: 'matmul', inputs: [SCRIPT, SCRIPT], shape: [8], dtype: 'f32' },
        ],
      },
      null,
      2,
    );
    const { page, requests } = await openWatched(link({ t: text }));
    await waitForPlan(page);
    assert.ok((await page.getByTestId('groups-table').textContent()).includes(IMG));
    assert.ok((await page.getByTestId('reasons').textContent()).includes(SCRIPT));
    await page.evaluate(() =>
      window.fusionPlayground.store.dispatch({ type: 'select', target: { kind: 'op', id: 1 } }),
    );
    await page.getByTestId('selection-panel').getByText(SCRIPT).first().waitFor();
    await page.getByTestId('groups-table').getByText(IMG).first().waitFor();
    await assertInert(page, requests);
    await closePage(page);
  },
);

test('a kind and an unknown input with HTML come back in the error message as text', { timeout: 60_000 }, async () => {
  const text = JSON.stringify({
    ops: [
      { name: 'x', kind: 'input', shape: [8], dtype: 'f32' },
      { name: 'y', kind: IMG, inputs: ['x'], shape: [8], dtype: 'f32' },
    ],
  });
  const { page, requests } = await openWatched(link({ t: text }));
  await page.waitForFunction(() => window.fusionPlayground?.store.getState().error);
  assert.equal(await page.evaluate(() => window.fusionPlayground.store.getState().error.error.code), 'unknown_kind');
  await page.getByTestId('editor-status').getByText(IMG).waitFor();
  await page.getByTestId('status').getByText(IMG).waitFor();

  await page.evaluate(
    (t) => window.fusionPlayground.store.dispatch({ type: 'set-text', text: t }),
    text.replace(IMG, 'relu').replace('["x"]', JSON.stringify([SCRIPT])),
  );
  await page.getByTestId('editor-status').getByText(SCRIPT).waitFor();
  assert.equal(await page.evaluate(() => window.fusionPlayground.store.getState().error.error.code), 'unknown_input');
  await assertInert(page, requests);
  await closePage(page);
});

test('an example id with HTML in a link is named as text in the notice', { timeout: 60_000 }, async () => {
  const { page, requests } = await openWatched(link({ e: IMG }));
  await waitForPlan(page);
  await page.getByTestId('notice').getByText(IMG).waitFor();
  await assertInert(page, requests);
  await closePage(page);
});
