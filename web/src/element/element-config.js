// element-config.js — what a <fusion-playground> element asks for, read from its attributes and children.
//
// Contract: readElementConfig({attrs, inlineText, baseUrl, pageOrigin}) → {graph, options, colorBy, error}:
//   graph:   {kind:'inline', text} from a <script type="application/json"> child (wins over the rest),
//            {kind:'src', url} from the src attribute (resolved against baseUrl; must be same-origin),
//            {kind:'example', id} from the example attribute, or {kind:'none'};
//   options: planner options from broadcast="false", resident-sources (a boolean attribute), strategy="S" /
//            hardware="H" (names, any case; present in options only when given — the planner judges them) and
//            dims="N=8,seq=128" (values of named dimensions, state/dims.js parseDimsText; options.dims only
//            when given; the planner judges the values);
//   colorBy: 'bytes' when color-by="bytes", else 'group';
//   error:   a message for people when the request cannot be honoured (cross-origin or bad src, no graph).
// attrs maps attribute name → value (null when absent). Pure: no DOM, no fetching.
// Shown by tests/web/element-config.test.mjs.

import { DEFAULT_OPTIONS, isChoiceName } from '../state/options.js';
import { parseDimsText } from '../state/dims.js';

const flag = (value, fallback) => (value === null || value === undefined ? fallback : value !== 'false');

function graphRequest({ attrs, inlineText, baseUrl, pageOrigin }) {
  if (inlineText && inlineText.trim()) return { graph: { kind: 'inline', text: inlineText } };
  if (attrs.src) {
    let url;
    try {
      url = new URL(attrs.src, baseUrl);
    } catch {
      return { graph: { kind: 'none' }, error: `src="${attrs.src}" is not a URL.` };
    }
    if (url.origin !== pageOrigin) {
      return {
        graph: { kind: 'none' },
        error: `src must be on this site (${pageOrigin}); ${url.origin} is another origin. Put the graph inline instead.`,
      };
    }
    return { graph: { kind: 'src', url: url.href } };
  }
  if (attrs.example) return { graph: { kind: 'example', id: attrs.example } };
  return {
    graph: { kind: 'none' },
    error: 'No graph: put it in a <script type="application/json"> child, or give src="graph.json" or example="…".',
  };
}

// strategy="…" and hardware="…" as options, or an error naming the attribute that is not a name.
function choices(attrs) {
  const options = {};
  for (const key of ['strategy', 'hardware']) {
    const v = attrs[key]?.trim().toLowerCase();
    if (v === undefined || v === '') continue;
    if (!isChoiceName(v))
      return {
        options,
        error: `${key}="${attrs[key].slice(0, 40)}" is not a ${key} name (such as ${key === 'strategy' ? 'xla or tvm' : 'a100 or h100'}).`,
      };
    options[key] = v;
  }
  return { options, error: null };
}

// dims="N=8,seq=128" as options, or an error in words.
function sizes(attrs) {
  if (attrs.dims === null || attrs.dims === undefined) return { options: {}, error: null };
  const { dims, error } = parseDimsText(attrs.dims);
  if (error)
    return { options: {}, error: `dims="${attrs.dims.slice(0, 60)}": ${error}; write it as dims="N=8,seq=128".` };
  return { options: Object.keys(dims).length ? { dims } : {}, error: null };
}

export function readElementConfig({ attrs = {}, inlineText = '', baseUrl, pageOrigin }) {
  const request = graphRequest({ attrs, inlineText, baseUrl, pageOrigin });
  const { graph } = request;
  const picked = choices(attrs);
  const sized = sizes(attrs);
  const error = request.error ?? picked.error ?? sized.error;
  return {
    graph,
    options: {
      broadcast: flag(attrs.broadcast, DEFAULT_OPTIONS.broadcast),
      resident_sources: flag(attrs['resident-sources'], DEFAULT_OPTIONS.resident_sources),
      ...picked.options,
      ...sized.options,
    },
    colorBy: attrs['color-by'] === 'bytes' ? 'bytes' : 'group',
    error,
  };
}
