// import-source.test.mjs — the ?onnx= parameter takes only same-origin relative paths; formats are sniffed.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  modelUrlFromSearch,
  sniffFormat,
  importFailure,
  importSummary,
  tooLarge,
  MAX_FILE_BYTES,
} from '../../web/src/import/import-source.js';

const PAGE = 'https://example.org/fusion/index.html?onnx=x';

test('no parameter: nothing to load', () => {
  assert.equal(modelUrlFromSearch('?embed', PAGE), null);
});

test('a relative path resolves against the page', () => {
  assert.deepEqual(modelUrlFromSearch('?onnx=models/resnet18.onnx', PAGE), {
    ok: true,
    url: 'https://example.org/fusion/models/resnet18.onnx',
    name: 'resnet18.onnx',
  });
  assert.equal(modelUrlFromSearch('?onnx=/m/a%20b.onnx', PAGE).name, 'a b.onnx');
  assert.equal(modelUrlFromSearch('?onnx=../up.onnx', PAGE).url, 'https://example.org/up.onnx');
});

test('absolute, protocol-relative and other-origin addresses are refused with a reason', () => {
  for (const bad of [
    'https://evil.example/m.onnx',
    'http://example.org/m.onnx',
    '//evil.example/m.onnx',
    '\\\\evil.example/m.onnx',
    'data:application/octet-stream;base64,AAAA',
    'javascript:alert(1)',
    '/\\evil.example/m.onnx',
  ]) {
    const r = modelUrlFromSearch(`?onnx=${encodeURIComponent(bad)}`, PAGE);
    assert.equal(r.ok, false, bad);
    assert.match(r.message, /was not loaded/, bad);
  }
  assert.match(modelUrlFromSearch('?onnx=', PAGE).message, /empty/);
  assert.match(modelUrlFromSearch('?onnx=https://evil.example/m.onnx', PAGE).message, /relative path/);
});

test('JSON is told from ONNX by its first byte', () => {
  const enc = (s) => new TextEncoder().encode(s);
  assert.equal(sniffFormat(enc('{"ops": []}')), 'json');
  assert.equal(sniffFormat(enc('\ufeff \n\t{"ops": []}')), 'json');
  assert.equal(sniffFormat(Uint8Array.of(0x08, 0x07, 0x12)), 'onnx');
  assert.equal(sniffFormat(new Uint8Array()), 'onnx');
});

test("the sentences name the file and keep the person's graph", () => {
  assert.equal(
    importFailure('m.onnx', { message: "node 'conv1' (Conv) at graph.node[3]: no kernel shape" }),
    "Could not open m.onnx: node 'conv1' (Conv) at graph.node[3]: no kernel shape. Your graph is unchanged.",
  );
  assert.match(
    importSummary('r.onnx', { ops: 1, warnings: ['a', 'b'], format: 'onnx', bytes: 2048 }),
    /^Opened ONNX model r\.onnx \(2\.00 KiB\): 1 op · 2 warnings$/,
  );
  assert.match(tooLarge('big.onnx', MAX_FILE_BYTES + 1), /big\.onnx is .* up to 1\.00 GiB/);
});

test('a message that already names the file does not name it twice', () => {
  assert.equal(
    importFailure('m.onnx', { message: 'm.onnx: not an ONNX model' }),
    'Could not open m.onnx: not an ONNX model. Your graph is unchanged.',
  );
});
