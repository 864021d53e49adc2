// page-editor.test.mjs — the JSON box: a syntax error is shown at its line, the last valid plan stays,
// fixing it restores the plan, and the typed text is never lost; validation errors name the op.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openSite, openPage, closePage, waitForPlan, shownNumbers, editorText, shot } from './page-helpers.mjs';

let site;
before(async () => {
  site = await openSite();
});
after(async () => {
  await site?.close();
});

// Replaces line `n` (1-based) of the JSON box the way a person pastes an edited graph: select all, paste.
// (Typing key by key would add CodeMirror's auto-closed brackets.)
async function retypeLine(page, n, text) {
  const lines = (await editorText(page)).split('\n');
  lines[n - 1] = text;
  await page.locator('.cm-content').click();
  await page.keyboard.press('Control+a');
  await page.keyboard.insertText(lines.join('\n'));
}

test(
  'a syntax error shows at its line; the last plan stays; fixing it restores the plan',
  { timeout: 60_000 },
  async () => {
    const page = await openPage(site, '#example=bias-relu');
    await waitForPlan(page);
    const before = await shownNumbers(page);
    const original = await editorText(page);

    await retypeLine(page, 3, '  {"name": "bias", "kind": "input", "shape": [768] "dtype": "f32"},');
    await page.waitForFunction(() =>
      /line 3\b/i.test(document.querySelector('[data-testid="editor-status"]').textContent),
    );
    assert.match(await page.getByTestId('status').textContent(), /last valid plan/);
    assert.equal((await page.locator('.cm-lintRange-error').count()) > 0, true, 'the error is marked in the text');
    const marked = await page.locator('.cm-line:has(.cm-lintRange-error)').first().textContent();
    assert.match(marked, /"bias"/, 'the mark is on line 3');
    assert.deepEqual(await shownNumbers(page), before, 'the last valid numbers stay on screen');
    assert.match(await editorText(page), /\[768\] "dtype"/, 'the broken text is kept as typed');
    assert.equal(await page.getByTestId('graph-overlay').isVisible(), true);
    await shot(page, 'error-state');

    await retypeLine(page, 3, '  {"name": "bias", "kind": "input", "shape": [768], "dtype": "f32"},');
    await page.waitForFunction(() =>
      /Valid graph/.test(document.querySelector('[data-testid="editor-status"]').textContent),
    );
    assert.equal(await editorText(page), original);
    assert.deepEqual(await shownNumbers(page), before);
    assert.equal(await page.locator('.cm-lintRange-error').count(), 0);
    assert.deepEqual(page.problems, []);
    await closePage(page);
  },
);

test('a validation error names the op and marks the bad reference', { timeout: 60_000 }, async () => {
  const page = await openPage(site, '#example=bias-relu');
  await waitForPlan(page);
  await retypeLine(page, 5, '  {"name": "z", "kind": "relu", "inputs": ["why"], "shape": [1024, 768], "dtype": "f32"}');
  await page.waitForFunction(() => document.querySelector('.cm-lintRange-error'));
  assert.match(await page.getByTestId('editor-status').textContent(), /'z'.*'why'|why/);
  assert.equal(await page.locator('.cm-lintRange-error').first().textContent(), '"why"');
  await closePage(page);
});

test('the JSON box completes op kinds from the schema', { timeout: 60_000 }, async () => {
  const page = await openPage(site, '#example=bias-relu');
  await waitForPlan(page);
  // Put the cursor inside the value of "kind" ("relu") and ask for completions.
  await page.locator('.cm-line span', { hasText: /^"relu"$/ }).click();
  await page.keyboard.press('Control+Space');
  const options = page.locator('.cm-tooltip-autocomplete li');
  await options.first().waitFor({ timeout: 30_000 });
  const labels = await options.allTextContents();
  assert.ok(
    labels.some((l) => /relu/.test(l)),
    `completions: ${labels.slice(0, 8).join(', ')}`,
  );
  await closePage(page);
});
