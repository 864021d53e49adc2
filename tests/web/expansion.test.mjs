// expansion.test.mjs — which fusion groups are drawn open: the default by graph size, toggles, expand events.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { COLLAPSE_ABOVE, isOpen, toggleGroup, openGroup, setAll, expandTo } from '../../web/src/state/expansion.js';

test('a small graph opens expanded and a large one collapsed; toggling flips one group', () => {
  assert.equal(isOpen(null, 3, COLLAPSE_ABOVE), true);
  assert.equal(isOpen(null, 3, COLLAPSE_ABOVE + 1), false);
  const one = toggleGroup(null, 3, 5000);
  assert.deepEqual(one, { all: false, except: [3], ops: 5000 });
  assert.equal(isOpen(one, 3, 5000), true);
  assert.equal(isOpen(one, 4, 5000), false);
  assert.deepEqual(toggleGroup(one, 3, 5000), { all: false, except: [], ops: 5000 });
  assert.equal(openGroup(one, 3, 5000), one, 'opening an open group changes nothing');
  assert.equal(isOpen(toggleGroup(setAll(true, 10), 7, 10), 7, 10), false);
  assert.equal(isOpen(one, 3, 4999), false, 'a state made for another graph size no longer applies');
  assert.equal(isOpen(setAll(false, 5000), 3, 10), true);
});

test('an expand event opens or closes one group, or all of them', () => {
  assert.deepEqual(expandTo(null, 'all', true, 5000), { all: true, except: [], ops: 5000 });
  const one = expandTo(null, 4, true, 5000);
  assert.equal(isOpen(one, 4, 5000), true);
  assert.equal(expandTo(one, 4, true, 5000), one);
  assert.equal(isOpen(expandTo(one, 4, false, 5000), 4, 5000), false);
  assert.equal(isOpen(expandTo(null, 4, false, 10), 4, 10), false);
});
