// url-state.test.mjs — share links: round trips, only non-defaults stored, versioned, damaged links as data.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import LZString from 'lz-string';
import { decodeState, encodeState, parseMode, embedSnippet, STATE_VERSION } from '../../web/src/share/url-state.js';
import { DEFAULT_OPTIONS } from '../../web/src/state/options.js';

const TEXT =
  '{"ops": [\n  {"name": "x", "kind": "input", "shape": [8], "dtype": "f32"},\n' +
  '  {"name": "y", "kind": "relu", "inputs": ["x"], "shape": [8], "dtype": "f32"}\n]}\n';

test('an unmodified gallery example with default options is a readable example link', () => {
  const hash = encodeState({ example: 'diamond', text: 'T', options: DEFAULT_OPTIONS }, 'T');
  assert.equal(hash, 'example=diamond');
  assert.deepEqual(decodeState(`#${hash}`), { kind: 'state', state: { example: 'diamond', options: DEFAULT_OPTIONS } });
});

test('edited text and changed options round-trip through a versioned compressed link', () => {
  const state = { example: 'bias-relu', text: TEXT, options: { broadcast: false, resident_sources: true } };
  const hash = encodeState(state, 'the example text');
  assert.match(hash, new RegExp(`^state=${STATE_VERSION}\\.`));
  assert.deepEqual(decodeState(hash), { kind: 'state', state });
});

test('only what differs from the defaults is stored', () => {
  const withDefaults = encodeState({ example: 'diamond', text: 'EDITED', options: DEFAULT_OPTIONS }, 'ORIGINAL');
  const decoded = decodeState(withDefaults);
  assert.deepEqual(decoded.state.options, DEFAULT_OPTIONS);
  const sameText = encodeState(
    { example: 'diamond', text: 'ORIGINAL', options: { broadcast: false, resident_sources: false } },
    'ORIGINAL',
  );
  assert.equal(decodeState(sameText).state.text, undefined, 'the example text is not repeated in the link');
  assert.ok(sameText.length < 70, `short link expected, got ${sameText}`);
});

test('golden links of format 1 keep opening the same state', () => {
  const custom =
    'state=1.N4IgLiBcLAOiB7ADgZ3pABAbVgOwxnCLgIYC2ApuhvAB7wA0NIA1gJa4Am18HSArmEbMUACxJIqUbAA4Auk3icwAT0k8QAMwDMAJngBfBngJFSlDSuHx2XDQCcKAG37WQfQWmk4Q9EApFxdW95RRBlNSlMeB19EAM8OQTcEAZEKFAAIyhNEicUCjT7KDB7fgoDAyA';
  assert.deepEqual(decodeState(custom), {
    kind: 'state',
    state: { example: null, text: TEXT, options: { broadcast: false, resident_sources: true } },
  });
  assert.deepEqual(decodeState('state=1.N4IgpiBcICYJYEMC2B7AdjEAaEAXKIAGiAL5A'), {
    kind: 'state',
    state: { example: 'diamond', text: 'X', options: DEFAULT_OPTIONS },
  });
});

test('a truncated link is reported as damaged, not thrown', () => {
  const hash = encodeState({ example: null, text: TEXT, options: DEFAULT_OPTIONS });
  for (const cut of [hash.length - 5, Math.floor(hash.length / 2), 12]) {
    const r = decodeState(hash.slice(0, cut));
    assert.equal(r.kind, 'error', `cut at ${cut}`);
    assert.match(r.message, /damaged or incomplete/);
  }
});

test('foreign, garbled and ill-typed links are damaged links', () => {
  const LZ = 'N4IgpiBcICYJYEMC2B7AdjEAaEAXKIAGiAL5A';
  for (const hash of ['#hello', '#state=1.%%%%', '#state=1.', `#state=x.${LZ}`, '#example=../../etc', '#example=']) {
    assert.equal(decodeState(hash).kind, 'error', hash);
  }
});

test('a link from a newer format says so', () => {
  const r = decodeState('#state=99.N4IgpiBcICYJYEMC2B7AdjEAaEAXKIAGiAL5A');
  assert.equal(r.kind, 'error');
  assert.match(r.message, /newer/);
});

test('no hash means no link state', () => {
  assert.deepEqual(decodeState(''), { kind: 'empty' });
  assert.deepEqual(decodeState('#'), { kind: 'empty' });
});

test('the page mode comes from ?embed, ?editable, ?json, ?code and ?theme', () => {
  const none = {
    embed: false,
    editable: false,
    showJson: false,
    showCode: false,
    theme: null,
    compare: null,
    select: null,
    onnx: false,
  };
  assert.deepEqual(parseMode(''), none);
  assert.deepEqual(parseMode('?embed'), { ...none, embed: true });
  assert.deepEqual(parseMode('?embed&editable&json'), { ...none, embed: true, editable: true, showJson: true });
  assert.deepEqual(parseMode('?embed&code'), { ...none, embed: true, showCode: true });
  assert.deepEqual(parseMode('?embed=0'), none);
  assert.deepEqual(parseMode('?theme=dark'), { ...none, theme: 'dark' });
  assert.deepEqual(parseMode('?embed&theme=light'), { ...none, embed: true, theme: 'light' });
  assert.deepEqual(parseMode('?theme=purple'), none); // not a theme: the page's own choice
});

test('the embed snippet is an iframe with the URL attribute-escaped', () => {
  const s = embedSnippet('https://x.test/?embed&json#example=diamond');
  assert.match(s, /^<iframe src="https:\/\/x\.test\/\?embed&amp;json#example=diamond"/);
  assert.doesNotMatch(embedSnippet('a"onload="x'), /"onload="/);
});

test('strategy, hardware and the compare pair ride on a readable example link', () => {
  const state = {
    example: 'diamond',
    text: 'T',
    options: { ...DEFAULT_OPTIONS, strategy: 'tvm', hardware: 'h100' },
    compare: ['xla', 'tvm'],
  };
  const hash = encodeState(state, 'T');
  assert.equal(hash, 'example=diamond&strategy=tvm&hardware=h100&compare=xla,tvm');
  const { text, ...linked } = state;
  assert.deepEqual(decodeState(hash), { kind: 'state', state: linked });
  assert.deepEqual(decodeState('#example=diamond&strategy=xla').state.options, { ...DEFAULT_OPTIONS, strategy: 'xla' });
  const classic = {
    example: 'diamond',
    options: { ...DEFAULT_OPTIONS, strategy: 'xla-classic' },
    compare: ['xla', 'xla-classic'],
  };
  assert.equal(
    encodeState({ ...classic, text: 'T' }, 'T'),
    'example=diamond&strategy=xla-classic&compare=xla,xla-classic',
  );
  assert.deepEqual(decodeState(encodeState({ ...classic, text: 'T' }, 'T')), { kind: 'state', state: classic });
});

test('the default strategy and hardware are not written into a link', () => {
  assert.equal(
    encodeState(
      { example: 'diamond', text: 'T', options: { ...DEFAULT_OPTIONS, strategy: 'seed', hardware: 'a100' } },
      'T',
    ),
    'example=diamond',
  );
});

test('an edited graph with a strategy and a compare pair round-trips through a format-1 link', () => {
  const state = {
    example: null,
    text: TEXT,
    options: { broadcast: false, resident_sources: false, strategy: 'inductor', hardware: 'rtx4090' },
    compare: ['seed', 'inductor'],
  };
  const hash = encodeState(state);
  assert.match(hash, /^state=1\./);
  assert.deepEqual(decodeState(hash), { kind: 'state', state });
});

test('golden links with a strategy keep opening the same state', () => {
  assert.deepEqual(decodeState('state=1.N4IgpiBcICYJYEMC2B7AdjEAaEAXKIAGtiClKAM4EAeANgiAL44DGUA2iBWGJjnQwC6jIA'), {
    kind: 'state',
    state: {
      example: 'diamond',
      text: 'X',
      options: { ...DEFAULT_OPTIONS, strategy: 'xla' },
      compare: ['seed', 'xla'],
    },
  });
});

test('ill-formed strategy, hardware and compare settings make a damaged link, not an exception', () => {
  for (const hash of [
    '#example=diamond&strategy=XLA',
    '#example=diamond&strategy=-xla',
    '#example=diamond&hardware=',
    '#example=diamond&compare=xla',
    '#example=diamond&colour=red',
    '#example=diamond&strategy=%E0%A4%A',
  ]) {
    const r = decodeState(hash);
    assert.equal(r.kind, 'error', hash);
    assert.match(r.message, /damaged or incomplete/);
  }
  assert.match(decodeState('#example=diamond&colour=red').message, /unknown setting “colour”/);
  const bad = (o) => `state=1.${LZString.compressToEncodedURIComponent(JSON.stringify(o))}`;
  assert.equal(decodeState(bad({ e: 'diamond', o: { s: 3 } })).kind, 'error');
  assert.equal(decodeState(bad({ e: 'diamond', c: ['xla'] })).kind, 'error');
  assert.equal(decodeState(bad({ e: 'diamond', o: { h: '../x' } })).kind, 'error');
});

test('the Optimal switch and its budget ride in readable and packed links', () => {
  const at = (optimal, compare) => ({
    example: 'greedy-trap',
    options: DEFAULT_OPTIONS,
    optimal,
    ...(compare ? { compare } : {}),
  });
  assert.equal(encodeState({ ...at(200_000), text: 'T' }, 'T'), 'example=greedy-trap&optimal');
  assert.equal(
    encodeState({ ...at(2_000_000, 'search'), text: 'T' }, 'T'),
    'example=greedy-trap&compare=search&optimal=2000000',
  );
  assert.deepEqual(decodeState('#example=greedy-trap&optimal'), { kind: 'state', state: at(200_000) });
  assert.deepEqual(decodeState('#example=greedy-trap&compare=search&optimal=2000000'), {
    kind: 'state',
    state: at(2_000_000, 'search'),
  });
  const packed = { ...at(20_000_000, 'search'), text: 'X' };
  assert.deepEqual(decodeState(encodeState(packed, 'T')), { kind: 'state', state: packed });
  assert.equal(encodeState({ ...at(null), text: 'T' }, 'T'), 'example=greedy-trap', 'off: nothing in the link');
});

test('golden links with the Optimal switch keep opening the same state', () => {
  assert.deepEqual(decodeState('state=1.N4IgpiBcIIYgNCALlEBXBIDGqDOYYAnLAC0wAcoAmABjvoF8g'), {
    kind: 'state',
    state: { example: 'a', text: 'u', options: DEFAULT_OPTIONS, compare: 'search', optimal: 2_000_000 },
  });
});

test('ill-formed Optimal settings make a damaged link', () => {
  for (const hash of [
    '#example=x&optimal=0',
    '#example=x&optimal=abc',
    '#example=x&optimal=2000000000',
    '#example=x&optimal=1.5',
  ])
    assert.match(decodeState(hash).message, /not a valid optimal setting/, hash);
  const bad = (o) => `state=1.${LZString.compressToEncodedURIComponent(JSON.stringify(o))}`;
  for (const p of [0, -1, 1.5, '200000', true, 2e9])
    assert.equal(decodeState(bad({ e: 'x', p })).kind, 'error', String(p));
});
