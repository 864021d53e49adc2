// drafts.js — the person's current graph survives a reload (localStorage).
//
// Contract: saveDraft(storage, {example, text, options}) stores a versioned record; loadDraft(storage) →
// that state or null (missing, damaged or foreign records give null, never an exception). Pure over the
// storage object passed in, so tests use a Map-like fake. options keep the strategy and hardware picked
// (when they have the form of a name; absent = the planner's default) and the values given to named
// dimensions (dims.js; a damaged dims object is dropped, the rest of the draft kept). Shown by
// tests/web/drafts.test.mjs.

import { isChoiceName } from './options.js';
import { readDims } from './dims.js';

const KEY = 'fusion-playground:draft';
const VERSION = 1;

export function saveDraft(storage, { example, text, options }) {
  try {
    storage.setItem(KEY, JSON.stringify({ v: VERSION, example, text, options }));
  } catch {
    /* storage full or disabled: drafts are a convenience */
  }
}

export function loadDraft(storage) {
  try {
    const d = JSON.parse(storage.getItem(KEY) ?? 'null');
    if (!d || d.v !== VERSION || typeof d.text !== 'string') return null;
    const options = d.options && typeof d.options === 'object' ? d.options : {};
    const choices = Object.fromEntries(
      ['strategy', 'hardware'].filter((k) => isChoiceName(options[k])).map((k) => [k, options[k]]),
    );
    const dims = readDims(options.dims);
    if (dims && Object.keys(dims).length) choices.dims = dims;
    return {
      example: typeof d.example === 'string' ? d.example : null,
      text: d.text,
      options: {
        broadcast: options.broadcast !== false,
        resident_sources: options.resident_sources === true,
        ...choices,
      },
    };
  } catch {
    return null;
  }
}
