// hostile-state.test.mjs — links, drafts and long sessions a person (or an attacker) can throw at the page.
//
// A garbage, truncated or oversized share link (data/link-50mb.txt unpacks to a 50,000,008-character payload,
// over MAX_LINK_TEXT) is refused with a message and the default example, and the page stays usable; a draft
// survives a planner failure and a reload; 300 edits in one page keep planning, and the page's JS heap does
// not keep growing.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import LZString from 'lz-string';
import { DEFAULT_EXAMPLE } from '../../web/src/gallery/gallery.js';
import { MAX_LINK_TEXT, decodeState } from '../../web/src/share/url-state.js';
import { openSite, openPage, closePage, waitForPlan, editorText } from './page-helpers.mjs';

const BIG_LINK = `#state=1.${readFileSync(new URL('data/link-50mb.txt', import.meta.url), 'utf8').trim()}`;
const state = (page) =>
  page.evaluate(() => {
    const { example, text, error, plan } = window.fusionPlayground.store.getState();
    return { example, text, code: error?.error?.code ?? null, ops: plan ? plan.op_group.length : null };
  });
const graphText = (n) =>
  JSON.stringify(
    {
      ops: [
        { name: 'x', kind: 'input', shape: [n], dtype: 'f32' },
        { name: 'y', kind: 'relu', inputs: ['x'], shape: [n], dtype: 'f32' },
        { name: 'z', kind: 'exp', inputs: ['y'], shape: [n], dtype: 'f32' },
      ],
    },
    null,
    2,
  );

let site;
before(async () => {
  site = await openSite();
});
after(async () => {
  await site?.close();
});

test('the 50 MB fixture really unpacks to 50 MB, and decodeState refuses it by size', () => {
  const payload = LZString.decompressFromEncodedURIComponent(BIG_LINK.slice('#state=1.'.length));
  assert.equal(payload.length, 50_000_008);
  assert.ok(payload.length > MAX_LINK_TEXT);
  assert.match(decodeState(BIG_LINK).message, /too large/);
});

for (const [what, hash, message] of [
  ['garbage', '#state=1.%%%@@@not-a-link\u0000', /damaged or incomplete/],
  ['binary noise', `#state=1.${'-+$'.repeat(5000)}`, /damaged or incomplete/],
  [
    'truncated',
    `#state=1.${LZString.compressToEncodedURIComponent(JSON.stringify({ t: graphText(4) })).slice(0, 60)}`,
    /damaged or incomplete/,
  ],
  ['50 MB payload', BIG_LINK, /too large/],
]) {
  test(
    `a ${what} link shows a message and the default example, and the page keeps working`,
    { timeout: 90_000 },
    async () => {
      const page = await openPage(site, hash);
      const n = await waitForPlan(page);
      assert.match(await page.getByTestId('notice').textContent(), message);
      assert.equal((await state(page)).example, DEFAULT_EXAMPLE);
      assert.ok((await editorText(page)).length < 100_000, 'the link text reached the editor');
      // Still usable: an edit plans.
      await page.evaluate((t) => window.fusionPlayground.store.dispatch({ type: 'set-text', text: t }), graphText(16));
      await waitForPlan(page, n + 1);
      assert.deepEqual(await state(page), { example: DEFAULT_EXAMPLE, text: graphText(16), code: null, ops: 3 });
      await closePage(page);
    },
  );
}

// The planner's failure here is an error value for a hostile graph (a self-referencing op); a graph that
// exhausts the planner's heap needs tens of MB of text, which the page cannot yet take (the share link is
// re-compressed on every change; see the report of issue 6).
test('a draft survives a planner failure and a reload', { timeout: 120_000 }, async () => {
  const page = await openPage(site, '');
  const n = await waitForPlan(page);
  const draft = graphText(1024);
  await page.evaluate((t) => window.fusionPlayground.store.dispatch({ type: 'set-text', text: t }), draft);
  await waitForPlan(page, n + 1);
  await page.waitForFunction(
    (t) => JSON.parse(localStorage.getItem('fusion-playground:draft') ?? '{}').text === t,
    draft,
  );

  const failing = draft.replace('"inputs": [\n        "x"\n      ]', '"inputs": [\n        "y"\n      ]');
  assert.notEqual(failing, draft);
  await page.evaluate((t) => window.fusionPlayground.store.dispatch({ type: 'set-text', text: t }), failing);
  await page.waitForFunction((t) => window.fusionPlayground.store.getState().planned?.text === t, failing);
  assert.equal((await state(page)).code, 'cycle');
  assert.match(await page.getByTestId('status').textContent(), /Not planned/);
  await page.waitForFunction(
    (t) => JSON.parse(localStorage.getItem('fusion-playground:draft') ?? '{}').text === t,
    failing,
  );

  await page.reload(); // the link now carries the failing text: it opens again, with its error
  await page.waitForFunction(() => window.fusionPlayground?.store.getState().error);
  assert.deepEqual(
    { ...(await state(page)), example: undefined },
    { example: undefined, text: failing, code: 'cycle', ops: null },
  );

  await page.goto(site.server.url); // a fresh visit: no link, so the draft is what opens
  await page.waitForFunction(() => window.fusionPlayground?.store.getState().error);
  assert.equal(await editorText(page), failing);
  // Fixing the draft plans again.
  await page.evaluate((t) => window.fusionPlayground.store.dispatch({ type: 'set-text', text: t }), draft);
  await page.waitForFunction(() => window.fusionPlayground?.store.getState().plan);
  assert.deepEqual(
    { ...(await state(page)), example: undefined },
    { example: undefined, text: draft, code: null, ops: 3 },
  );
  await closePage(page);
});

test('300 edits in one page all plan, and the JS heap stops growing', { timeout: 300_000 }, async () => {
  const page = await openPage(
    site,
    `#state=1.${LZString.compressToEncodedURIComponent(JSON.stringify({ t: graphText(8) }))}`,
  );
  await waitForPlan(page);
  const cdp = await page.context().newCDPSession(page);
  const heap = async () => {
    await cdp.send('HeapProfiler.collectGarbage');
    return (await cdp.send('Runtime.getHeapUsage')).usedSize;
  };
  // Edit i: the relu's shape becomes [9 + i]; it must come back planned, with the new shape in the plan.
  const edit = async (i) => {
    await page.evaluate(
      (d) =>
        window.fusionPlayground.store.dispatch({
          type: 'edit-graph',
          edit: { type: 'update', op: 1, patch: { shape: [d] } },
        }),
      9 + i,
    );
    await page.waitForFunction(
      (d) => {
        const s = window.fusionPlayground?.store.getState(); // the page's script runs after the load event
        if (!s) return false;
        return s.planned?.text === s.text && !s.error && s.graph.ops[1].shape[0] === d;
      },
      9 + i,
      { timeout: 30_000 },
    );
  };
  for (let i = 0; i < 100; ++i) await edit(i);
  const warm = await heap();
  for (let i = 100; i < 300; ++i) await edit(i);
  const end = await heap();
  const { plan } = await page.evaluate(() => ({ plan: window.fusionPlayground.store.getState().plan }));
  assert.equal(plan.bytes_unfused, 4 * (8 + 8 + 308 + 308 + 8)); // x; relu reads x; exp reads relu
  assert.ok(end - warm < 8 * 2 ** 20, `the JS heap grew by ${end - warm} bytes over 200 edits (from ${warm})`);
  assert.deepEqual(page.problems, []);
  await closePage(page);
});

test(
  'a graph too large for a link plans, says so, and leaves the link and the draft alone',
  { timeout: 180_000 },
  async () => {
    const page = await openPage(site, '');
    const n = await waitForPlan(page);
    const hashBefore = await page.evaluate(() => location.hash);
    // Three ops and a 9 MiB description: over MAX_LINK_TEXT (8 MiB) without a huge graph to draw.
    const length = await page.evaluate((max) => {
      const text = JSON.stringify({
        description: 'd'.repeat(Math.ceil(max * 1.1)),
        ops: [
          { name: 'x', kind: 'input', shape: [64], dtype: 'f32' },
          { name: 'y', kind: 'relu', inputs: ['x'], shape: [64], dtype: 'f32' },
          { name: 'z', kind: 'exp', inputs: ['y'], shape: [64], dtype: 'f32' },
        ],
      });
      window.fusionPlayground.store.dispatch({ type: 'set-text', text });
      return text.length;
    }, MAX_LINK_TEXT);
    assert.ok(length > MAX_LINK_TEXT);
    await waitForPlan(page, n + 1, 90_000);
    await page
      .getByTestId('notice')
      .filter({ hasText: /too large for a share link/ })
      .waitFor({ timeout: 60_000 });
    assert.equal((await state(page)).ops, 3);
    assert.equal(await page.evaluate(() => location.hash), hashBefore);
    await closePage(page);
  },
);
