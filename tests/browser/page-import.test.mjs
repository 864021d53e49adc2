// page-import.test.mjs — opening models: an ONNX file dropped anywhere on the page, chosen with the Open button
// or Ctrl+O, or named by ?onnx=, becomes the current graph and shows the plan the native CLI computes for the
// importer's graph; a broken model names the node and keeps the graph and text the person had.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { openSite, openPage, closePage, waitForPlan, shownNumbers, editorText, shot, root } from './page-helpers.mjs';
import { dropFile, cliPlan, importerText, numbersOf } from './import-helpers.mjs';
import { F32, graph, info, modelBytes, node } from '../onnx/onnx-model-builder.mjs';

let site;
before(async () => {
  site = await openSite();
});
after(async () => {
  await site?.close();
});

const model = (name) => root(`examples/models/${name}`);

// A model the importer refuses: a custom op whose output shape nobody declares.
const BROKEN = modelBytes(
  graph({
    inputs: [info('x', F32, [1, 8])],
    outputs: [info('y', F32)],
    nodes: [node('Relu', ['x'], ['r'], {}, 'act'), node('MyCustomOp', ['r'], ['y'], {}, 'nms', 'com.example')],
  }),
);

test(
  "dropping resnet18.onnx on the JSON box shows its plan, equal to the CLI on the importer's graph",
  { timeout: 90_000 },
  async () => {
    const page = await openPage(site, '#example=transformer-mlp');
    const n = await waitForPlan(page);
    const before = await editorText(page);
    await dropFile(page, '.cm-content', 'resnet18.onnx', readFileSync(model('resnet18.onnx')));
    await waitForPlan(page, n + 1, 60_000);
    const expected = importerText(model('resnet18.onnx'));
    assert.equal(
      await editorText(page),
      expected,
      "the JSON box holds the importer's graph (not the dropped bytes as text)",
    );
    assert.deepEqual(await shownNumbers(page), numbersOf(cliPlan(expected)));
    const bar = await page.getByTestId('import-text').textContent();
    assert.match(bar, /ONNX model resnet18\.onnx .*173 ops/);
    const run = await page.evaluate(() => window.fusionPlayground.imports.last);
    // The stages' times are recorded, in the order the stages end (how long they take: npm run bench:page).
    const stages = [run.readMs, run.importMs, run.toNumbersMs, run.toDrawnMs];
    assert.ok(stages.every(Number.isFinite), `the timings of the import are recorded: ${stages}`);
    assert.deepEqual(
      stages,
      [...stages].sort((p, q) => p - q),
      'read, imported, planned, drawn: in that order',
    );
    await shot(page, 'import-resnet18');
    await page.locator('#graph').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('Control+z');
    await page.waitForFunction((t) => window.fusionPlayground.store.getState().text === t, before);
    assert.deepEqual(page.problems, []);
    await closePage(page);
  },
);

test(
  'the Open button, Ctrl+O and the file input open a model; a .json graph opens as written',
  { timeout: 90_000 },
  async () => {
    const page = await openPage(site, '#example=diamond');
    let n = await waitForPlan(page);
    const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByTestId('open-file').click()]);
    await chooser.setFiles(model('mobilenet-v2.onnx'));
    n = await waitForPlan(page, n + 1, 60_000);
    assert.deepEqual(await shownNumbers(page), numbersOf(cliPlan(importerText(model('mobilenet-v2.onnx')))));

    await page.locator('#graph').focus();
    const [again] = await Promise.all([page.waitForEvent('filechooser'), page.keyboard.press('Control+o')]);
    await again.setFiles(root('examples/bias-relu.json'));
    n = await waitForPlan(page, n + 1, 60_000);
    assert.equal(await editorText(page), readFileSync(root('examples/bias-relu.json'), 'utf8'));

    await page.setInputFiles('#file-input', model('bert-layer.onnx'));
    await waitForPlan(page, n + 1, 60_000);
    assert.deepEqual(await shownNumbers(page), numbersOf(cliPlan(importerText(model('bert-layer.onnx')))));
    assert.deepEqual(page.problems, []);
    await closePage(page);
  },
);

test(
  'a broken model shows an error naming the node, and the graph and text stay as they were',
  { timeout: 60_000 },
  async () => {
    const page = await openPage(site, '#example=bias-relu');
    const n = await waitForPlan(page);
    const text = await editorText(page);
    const numbers = await shownNumbers(page);
    await dropFile(page, '#graph', 'detector.onnx', BROKEN);
    const notice = page.getByTestId('notice');
    await notice.waitFor({ state: 'visible' });
    const said = await notice.textContent();
    assert.match(said, /Could not open detector\.onnx: node 'nms' \(MyCustomOp\) at graph\.node\[1\]/);
    assert.match(said, /Your graph is unchanged/);
    await shot(page, 'import-error');

    await page.getByTestId('notice').locator('button').click();
    await dropFile(page, 'header', 'photo.onnx', Buffer.from('\x89PNG\r\n\x1a\n not a model'));
    await notice.waitFor({ state: 'visible' });
    assert.match(await notice.textContent(), /photo\.onnx: .*not a valid ONNX file/);
    await page.getByTestId('notice').locator('button').click();
    await dropFile(page, 'header', 'notes.json', Buffer.from('{"nodes": [1, 2]}'));
    await notice.waitFor({ state: 'visible' });
    assert.match(await notice.textContent(), /notes\.json: it is JSON but not an op graph/);

    assert.equal(await editorText(page), text, 'the text is the one the person had');
    assert.deepEqual(await shownNumbers(page), numbers);
    assert.equal(Number(await page.evaluate(() => document.body.dataset.planShown)), n, 'nothing was re-planned');
    assert.equal(
      await page.evaluate(() => window.fusionPlayground.store.getState().past.length),
      0,
      'no undo step was added',
    );
    assert.deepEqual(page.problems, []);
    await closePage(page);
  },
);

test(
  '?onnx= loads a model from this site; another site or an absolute address is refused',
  { timeout: 90_000 },
  async () => {
    const context = await site.browser.newContext({ viewport: { width: 1440, height: 900 } });
    await context.route(`${site.server.url}models/**`, (route) =>
      route.request().url().endsWith('/resnet18.onnx')
        ? route.fulfill({
            status: 200,
            contentType: 'application/octet-stream',
            body: readFileSync(model('resnet18.onnx')),
          })
        : route.fulfill({ status: 404, body: 'not found' }),
    );
    const page = await context.newPage();
    await page.goto(`${site.server.url}?onnx=models/resnet18.onnx`);
    await page.waitForFunction(() => window.fusionPlayground?.store.getState().graph?.ops.length === 173, null, {
      timeout: 60_000,
    });
    await waitForPlan(page, 1, 60_000);
    await page.waitForFunction(() =>
      /resnet18\.onnx/.test(document.querySelector('[data-testid="import-text"]').textContent),
    );
    assert.deepEqual(await shownNumbers(page), numbersOf(cliPlan(importerText(model('resnet18.onnx')))));

    await page.goto(`${site.server.url}?embed&onnx=models/resnet18.onnx`);
    await page.waitForFunction(() => window.fusionPlayground?.store.getState().graph?.ops.length === 173, null, {
      timeout: 60_000,
    });
    await waitForPlan(page, 1, 60_000);
    assert.deepEqual(
      await shownNumbers(page),
      numbersOf(cliPlan(importerText(model('resnet18.onnx')))),
      'an embed shows the model too',
    );

    for (const [query, why] of [
      ['?onnx=https://example.com/m.onnx', /only a relative path/],
      ['?onnx=//example.com/m.onnx', /only a relative path/],
      ['?onnx=models/missing.onnx', /could not be loaded .*404/],
    ]) {
      await page.goto(`${site.server.url}${query}#example=diamond`);
      await page.getByTestId('notice').waitFor({ state: 'visible' });
      assert.match(await page.getByTestId('notice').textContent(), why, query);
      await waitForPlan(page);
      assert.equal(
        await page.evaluate(() => window.fusionPlayground.store.getState().example),
        'diamond',
        'the page still opens its graph',
      );
    }
    await context.close();
  },
);
