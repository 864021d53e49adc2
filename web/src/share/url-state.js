// url-state.js — share links: the page state ⇄ the URL hash, versioned and compressed.
//
// Contract (pure, no DOM):
//   encodeState({example, text, options, compare?, optimal?}, exampleText) → hash string without '#':
//     'example=<id>' when the text is the unmodified gallery example and the broadcast/resident options are
//     the defaults (a readable link, followed by '&strategy=S', '&hardware=H', '&compare=A,B' (or
//     '&compare=search': greedy vs optimal), '&dims=N=8,seq=128' and '&optimal' (plan search with the default
//     node budget) or '&optimal=N' (another budget) when those are set), else 'state=<version>.<lz-string
//     payload>'. The payload stores only what differs from the defaults: e (example id), t (text, omitted when
//     equal to exampleText), o (options that differ: b, r, s = strategy, h = hardware, d = the named
//     dimensions' values, state/dims.js), c ([A, B], the compare view's two strategies, or 'search', when it is
//     open), p (the Optimal switch's node budget, when it is on).
//   decodeState(hash) → {kind:'empty'} | {kind:'state', state:{example, text?, options, compare?, optimal?}}
//     | {kind:'error', message}. A damaged, truncated, foreign or oversized link (MAX_LINK_CHARS,
//     MAX_LINK_TEXT) is an 'error' with a message for people, never an exception. Older versions are
//     migrated forward by MIGRATIONS; a newer version is an error. options always has broadcast and
//     resident_sources, and strategy/hardware/dims only when the link names them (absent = the planner's
//     default); names are checked for form (lower-case letters, digits, '_'; dimension names and numbers for
//     dims), the planner judges whether they exist and whether a size is valid.
//   parseMode(search): embed-params.js's, re-exported (the query string:
//     ?embed&editable&json&code&compare&select&theme).
// Old links are kept as golden tests in tests/web/url-state.test.mjs.

import LZString from 'lz-string';
import {
  DEFAULT_OPTIONS,
  DEFAULT_CHOICES,
  DEFAULT_SEARCH_BUDGET,
  isChoiceName,
  isSearchBudget,
} from '../state/options.js';
import { formatDimsText, readDims } from '../state/dims.js';

export { parseMode } from './embed-params.js';
import { damaged, decodeReadableLink, isPair } from './example-link.js';

export const STATE_VERSION = 1;
const OPTION_KEYS = { b: 'broadcast', r: 'resident_sources' };
const CHOICE_KEYS = { s: 'strategy', h: 'hardware' };

// MIGRATIONS[v] turns a version-v payload into a version-(v+1) payload. None yet: v1 is the first.
const MIGRATIONS = {};

// Size caps of a link: its payload (Chromium refuses URLs above 2 MB) and what that unpacks to (a graph of
// about 100,000 ops); a larger one is refused before JSON parsing, so a hostile link never reaches the editor,
// the draft or the planner.
export const MAX_LINK_CHARS = 2_000_000;
export const MAX_LINK_TEXT = 8 * 2 ** 20;
const tooLarge = (size) => ({
  kind: 'error',
  message:
    `This share link is too large to open (${size}; the limit is ${MAX_LINK_TEXT} characters of graph), ` +
    'so the default example is shown instead. Share a smaller graph, or send the JSON file.',
});

// The options that differ from the defaults, by their short keys.
function changedOptions(options) {
  const o = {};
  for (const [short, key] of Object.entries(OPTION_KEYS)) {
    if (options?.[key] !== undefined && options[key] !== DEFAULT_OPTIONS[key]) o[short] = options[key];
  }
  for (const [short, key] of Object.entries(CHOICE_KEYS)) {
    if (options?.[key] !== undefined && options[key] !== DEFAULT_CHOICES[key]) o[short] = options[key];
  }
  if (options?.dims && Object.keys(options.dims).length) o.d = options.dims;
  return o;
}

// 'example=<id>' and the strategy, hardware and compare settings as readable parameters.
function exampleLink(example, o, compare, optimal) {
  const params = [`example=${encodeURIComponent(example)}`];
  if (o.s !== undefined) params.push(`strategy=${encodeURIComponent(o.s)}`);
  if (o.h !== undefined) params.push(`hardware=${encodeURIComponent(o.h)}`);
  if (compare) params.push(`compare=${[compare].flat().map(encodeURIComponent).join(',')}`);
  if (o.d) params.push(`dims=${formatDimsText(o.d)}`);
  if (optimal) params.push(optimal === DEFAULT_SEARCH_BUDGET ? 'optimal' : `optimal=${optimal}`);
  return params.join('&');
}

export function encodeState({ example, text, options, compare, optimal }, exampleText) {
  const o = changedOptions(options);
  const sameText = example && text === exampleText;
  if (sameText && o.b === undefined && o.r === undefined) return exampleLink(example, o, compare, optimal);
  const payload = {};
  if (example) payload.e = example;
  if (!sameText) payload.t = text;
  if (Object.keys(o).length) payload.o = o;
  if (compare) payload.c = compare;
  if (optimal) payload.p = optimal;
  return `state=${STATE_VERSION}.${LZString.compressToEncodedURIComponent(JSON.stringify(payload))}`;
}

function readPayload(payload) {
  if (!payload || typeof payload !== 'object' || Array.isArray(payload)) return null;
  if (payload.e !== undefined && typeof payload.e !== 'string') return null;
  if (payload.t !== undefined && typeof payload.t !== 'string') return null;
  if (payload.e === undefined && payload.t === undefined) return null;
  const options = { ...DEFAULT_OPTIONS };
  for (const [short, key] of Object.entries(OPTION_KEYS)) {
    const v = payload.o?.[short];
    if (v === undefined) continue;
    if (typeof v !== 'boolean') return null;
    options[key] = v;
  }
  for (const [short, key] of Object.entries(CHOICE_KEYS)) {
    const v = payload.o?.[short];
    if (v === undefined) continue;
    if (!isChoiceName(v)) return null;
    options[key] = v;
  }
  if (payload.c !== undefined && !isPair(payload.c)) return null;
  if (payload.p !== undefined && !isSearchBudget(payload.p)) return null;
  const dims = readDims(payload.o?.d);
  if (!dims) return null;
  if (Object.keys(dims).length) options.dims = dims;
  return {
    example: payload.e ?? null,
    ...(payload.t !== undefined ? { text: payload.t } : {}),
    options,
    ...(payload.c ? { compare: copyPair(payload.c) } : {}),
    ...(payload.p ? { optimal: payload.p } : {}),
  };
}

const copyPair = (pair) => (Array.isArray(pair) ? [...pair] : pair);

export function decodeState(hash) {
  const readable = decodeReadableLink(hash);
  if (readable) return readable;
  const h = String(hash).replace(/^#/, '');
  const m = /^state=(\d+)\.(.+)$/s.exec(h);
  if (!m) return damaged('it does not look like a Fusion Playground link');
  let version = Number(m[1]);
  if (version > STATE_VERSION) {
    return {
      kind: 'error',
      message:
        `This link was made by a newer Fusion Playground (format ${version}); ` +
        'the default example is shown instead. Reload the page to get the latest version.',
    };
  }
  if (m[2].length > MAX_LINK_CHARS) return tooLarge(`${m[2].length} characters`);
  let payload;
  try {
    const text = LZString.decompressFromEncodedURIComponent(m[2]) ?? '';
    if (text.length > MAX_LINK_TEXT) return tooLarge(`it unpacks to ${text.length} characters`);
    payload = JSON.parse(text);
  } catch {
    return damaged('its data cannot be read');
  }
  for (; version < STATE_VERSION; version++) {
    if (!MIGRATIONS[version]) return damaged(`format ${version} is unknown`);
    payload = MIGRATIONS[version](payload);
  }
  const state = readPayload(payload);
  return state ? { kind: 'state', state } : damaged('its data is incomplete');
}

// The iframe snippet that embeds a page URL (the caller adds ?embed to it).
export function embedSnippet(url, { width = 720, height = 480 } = {}) {
  const esc = String(url).replace(/&/g, '&amp;').replace(/"/g, '&quot;');
  return (
    `<iframe src="${esc}" width="${width}" height="${height}" style="border:1px solid #d0d7de;border-radius:8px" ` +
    'title="Fusion Playground" loading="lazy"></iframe>'
  );
}
