// element-config.test.mjs — how a <fusion-playground> element's attributes and children become a request.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readElementConfig } from '../../web/src/element/element-config.js';

const at = { baseUrl: 'https://docs.example.org/posts/fusion/', pageOrigin: 'https://docs.example.org' };

test('an inline JSON child wins over src and example', () => {
  const c = readElementConfig({ ...at, attrs: { src: 'g.json', example: 'diamond' }, inlineText: ' {"ops": []} ' });
  assert.deepEqual(c.graph, { kind: 'inline', text: ' {"ops": []} ' });
  assert.equal(c.error, null);
});

test('src is resolved against the page and must be same-origin', () => {
  assert.deepEqual(readElementConfig({ ...at, attrs: { src: '../graphs/mlp.json' } }).graph, {
    kind: 'src',
    url: 'https://docs.example.org/posts/graphs/mlp.json',
  });
  const foreign = readElementConfig({ ...at, attrs: { src: 'https://elsewhere.example.com/g.json' } });
  assert.equal(foreign.graph.kind, 'none');
  assert.match(
    foreign.error,
    /src must be on this site \(https:\/\/docs\.example\.org\); https:\/\/elsewhere\.example\.com is another origin/,
  );
});

test('example names a gallery graph; with nothing given, the error says how to give one', () => {
  assert.deepEqual(readElementConfig({ ...at, attrs: { example: 'diamond' } }).graph, {
    kind: 'example',
    id: 'diamond',
  });
  const none = readElementConfig({ ...at, attrs: {}, inlineText: '  \n' });
  assert.equal(none.graph.kind, 'none');
  assert.match(none.error, /application\/json/);
});

test('options default to the planner defaults; broadcast="false" and resident-sources change them', () => {
  assert.deepEqual(readElementConfig({ ...at, attrs: { example: 'a' } }).options, {
    broadcast: true,
    resident_sources: false,
  });
  assert.deepEqual(
    readElementConfig({ ...at, attrs: { example: 'a', broadcast: 'false', 'resident-sources': '' } }).options,
    { broadcast: false, resident_sources: true },
  );
  assert.equal(
    readElementConfig({ ...at, attrs: { example: 'a', 'resident-sources': 'false' } }).options.resident_sources,
    false,
  );
});

test('color-by="bytes" colours ops by bytes moved; anything else by kernel', () => {
  assert.equal(readElementConfig({ ...at, attrs: { example: 'a', 'color-by': 'bytes' } }).colorBy, 'bytes');
  assert.equal(readElementConfig({ ...at, attrs: { example: 'a', 'color-by': 'heat' } }).colorBy, 'group');
});

test('strategy and hardware attributes become planner options (any case); an ill-formed one is explained', () => {
  assert.deepEqual(readElementConfig({ ...at, attrs: { example: 'a', strategy: 'TVM', hardware: 'h100' } }).options, {
    broadcast: true,
    resident_sources: false,
    strategy: 'tvm',
    hardware: 'h100',
  });
  const bad = readElementConfig({ ...at, attrs: { example: 'a', strategy: 'x l a' } });
  assert.match(bad.error, /strategy="x l a" is not a strategy name/);
  assert.equal(readElementConfig({ ...at, attrs: { example: 'a', hardware: '' } }).options.hardware, undefined);
});
