// palette.test.mjs — every text the graph drawing paints (theme/palette.js) reads at WCAG AA (4.5:1) on its
// ground, in the light and the dark theme: op labels on each category's fill, blocked-edge tags, and cluster
// titles on every kernel colour's tint; and the contrast arithmetic itself is right.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CLUSTER_TINT, GRAPH_COLORS, contrast, graphColors, over } from '../../web/src/theme/palette.js';
import { GROUP_COLORS } from '../../web/src/present/view-model.js';

test('contrast() is the WCAG ratio', () => {
  assert.equal(contrast('#000000', '#ffffff'), 21);
  assert.equal(contrast('#777777', '#777777'), 1);
  assert.ok(Math.abs(contrast('#767676', '#ffffff') - 4.54) < 0.01);
  assert.equal(over('#000000', 0.5, '#ffffff'), '#808080');
  assert.equal(graphColors('dark'), GRAPH_COLORS.dark);
  assert.equal(graphColors('purple'), GRAPH_COLORS.light);
});

for (const theme of ['light', 'dark']) {
  test(`every text of the graph drawing is readable in the ${theme} theme`, () => {
    const c = GRAPH_COLORS[theme];
    const pairs = {
      'op label': [c.ink, c.nodeFill],
      'source label': [c.sourceInk, c.sourceFill],
      'barrier label': [c.barrierInk, c.barrierFill],
      'unknown op label': [c.ink, c.unknownFill],
      'blocked-edge tag': [c.tagInk, c.tagGround],
      'hovered edge tag': [c.ink, c.tagGround],
      ...Object.fromEntries(
        GROUP_COLORS.map((k) => [`cluster title over ${k}`, [c.ink, over(k, CLUSTER_TINT, c.ground)]]),
      ),
      ...Object.fromEntries(GROUP_COLORS.map((k) => [`collapsed box on ${k}`, [c.ink, over(k, 0.2, c.ground)]])),
    };
    const low = Object.entries(pairs)
      .map(([what, [ink, ground]]) => [what, contrast(ink, ground).toFixed(2)])
      .filter(([, ratio]) => ratio < 4.5);
    assert.deepEqual(low, []);
  });
}
