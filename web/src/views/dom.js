// dom.js — h(tag, attrs, ...children): a tiny element builder so views never assemble HTML strings.
//
// Contract: attrs keys starting with "on" add listeners; `dataset`/`style` objects are assigned; other keys
// become attributes (true → present, false/null/undefined → absent). Children may be nodes, strings,
// numbers, arrays or null. Text is always inserted as text, never parsed as HTML. $(id) is
// document.getElementById(id), for the page's fixed elements (web/index.html).

export const $ = (id) => document.getElementById(id);

export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs ?? {})) {
    if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
    else if (k === 'dataset' || k === 'style') Object.assign(el[k], v);
    else if (v === true) el.setAttribute(k, '');
    else if (v !== false && v != null) el.setAttribute(k, String(v));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const c of children) {
    if (c == null || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else el.append(c instanceof Node ? c : String(c));
  }
}
