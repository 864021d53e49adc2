// drafts.test.mjs — a draft survives a reload; a damaged draft is ignored, never thrown.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadDraft, saveDraft } from '../../web/src/state/drafts.js';

const memory = () => {
  const m = new Map();
  return { getItem: (k) => m.get(k) ?? null, setItem: (k, v) => m.set(k, String(v)), m };
};

test('a saved draft loads back', () => {
  const s = memory();
  saveDraft(s, { example: 'diamond', text: '{"ops": [', options: { broadcast: false, resident_sources: true } });
  assert.deepEqual(loadDraft(s), {
    example: 'diamond',
    text: '{"ops": [',
    options: { broadcast: false, resident_sources: true },
  });
});

test('no draft, a damaged draft or a foreign version gives null', () => {
  const s = memory();
  assert.equal(loadDraft(s), null);
  s.setItem('fusion-playground:draft', '{not json');
  assert.equal(loadDraft(s), null);
  s.setItem('fusion-playground:draft', JSON.stringify({ v: 99, text: 'x' }));
  assert.equal(loadDraft(s), null);
});

test('a storage that refuses writes is not an error', () => {
  assert.doesNotThrow(() =>
    saveDraft(
      {
        setItem() {
          throw new Error('quota');
        },
      },
      { text: 'x' },
    ),
  );
});

test('the strategy and hardware picked survive a reload; ill-formed names are dropped', () => {
  const s = memory();
  saveDraft(s, {
    example: null,
    text: 'x',
    options: { broadcast: true, resident_sources: false, strategy: 'tvm', hardware: 'h100' },
  });
  assert.deepEqual(loadDraft(s).options, {
    broadcast: true,
    resident_sources: false,
    strategy: 'tvm',
    hardware: 'h100',
  });
  s.setItem(
    'fusion-playground:draft',
    JSON.stringify({ v: 1, text: 'x', options: { strategy: '<script>', hardware: 7 } }),
  );
  assert.deepEqual(loadDraft(s).options, { broadcast: true, resident_sources: false });
});
