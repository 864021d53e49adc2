// link-sync.js — the address bar and the saved draft follow the state; a link opened or changed becomes state.
//
// Contract: createLinkSync({store, dispatch, examples, mode}) subscribes at once: after a change of the text,
// options, example, compare pair or Optimal switch (300 ms debounce) the URL hash becomes share/url-state.js's link for the
// state (encoded off the main thread for a big graph, share/link-encoder.js; written with replaceState, so
// no history entry) and, outside an embed, the draft is saved (state/drafts.js). A graph of more than
// MAX_LINK_TEXT characters is neither linked nor saved; a notice says so once. A hash changed by the person
// (hashchange) is opened: an example link loads that example (and its strategy, hardware, compare pair, sizes and Optimal switch),
// a state link restores it, a damaged one shows its message and the default example. Returns {openFirst()},
// which opens what the page was loaded with: the link, else (outside an embed) the draft, else the default
// example; a link naming an unknown example says so and opens the default. Browser-only; shown by
// tests/browser/page-share.test.mjs and hostile-state.test.mjs.

import { DEFAULT_EXAMPLE, findExample } from '../gallery/gallery.js';
import { createLinkEncoder } from '../share/link-encoder.js';
import { decodeState, MAX_LINK_TEXT } from '../share/url-state.js';
import { loadDraft, saveDraft } from '../state/drafts.js';

export function createLinkSync({ store, dispatch, examples, mode }) {
  const linkEncoder = createLinkEncoder();
  let timer = null;
  let seq = 0;

  function writeLink(state) {
    clearTimeout(timer);
    const mine = ++seq;
    timer = setTimeout(async () => {
      // A graph too large for a link is neither encoded (compressing tens of MB would freeze the tab) nor
      // saved as a draft (local storage holds a few MB); the person is told once.
      if (state.text.length > MAX_LINK_TEXT) {
        if (!state.notice) {
          dispatch({
            type: 'notice',
            level: 'info',
            message:
              `This graph (${(state.text.length / 2 ** 20).toFixed(1)} MiB of JSON) ` +
              `is too large for a share link or a saved draft (limit ${MAX_LINK_TEXT / 2 ** 20} MiB); save the JSON to a file to keep it.`,
          });
        }
        return;
      }
      const hash = await linkEncoder.encode(state, examples[state.example]); // a big graph's off the main thread
      if (mine !== seq) return; // changed meanwhile: a newer call writes the link
      if (location.hash.slice(1) !== hash) history.replaceState(null, '', `#${hash}`);
      if (!mode.embed) saveDraft(localStorage, state);
    }, 300);
  }

  store.subscribe((s, prev) => {
    const changed = ['text', 'options', 'example', 'compare', 'optimal'].some((k) => s[k] !== prev[k]);
    if (changed) writeLink(s);
  });

  window.addEventListener('hashchange', () => {
    const link = decodeState(location.hash);
    if (link.kind === 'error') {
      dispatch({ type: 'notice', level: 'error', message: link.message });
      dispatch({ type: 'load-example', id: DEFAULT_EXAMPLE });
    } else if (link.kind === 'state') {
      const s = link.state;
      if (s.text !== undefined) return dispatch({ type: 'restore', state: s });
      dispatch({ type: 'load-example', id: s.example });
      // A readable link may also name a strategy, hardware, a compare pair or sizes (url-state.js).
      for (const key of ['strategy', 'hardware'])
        if (s.options[key]) dispatch({ type: 'set-option', key, value: s.options[key] });
      for (const [name, value] of Object.entries(s.options.dims ?? {})) dispatch({ type: 'set-dim', name, value });
      if (s.optimal) dispatch({ type: 'set-optimal', value: s.optimal });
      if (s.compare) dispatch({ type: 'set-compare', pair: s.compare });
    }
  });

  // The state a link, a draft or nothing asks for; a bad link says so and opens the default example.
  function firstState() {
    const link = decodeState(location.hash);
    if (link.kind === 'state') {
      const { example, text } = link.state;
      if (text !== undefined || example in examples) return { state: link.state };
      return {
        state: { example: DEFAULT_EXAMPLE },
        notice: `There is no example called “${example}”; showing ${findExample(DEFAULT_EXAMPLE).title} instead.`,
      };
    }
    if (link.kind === 'error') return { state: { example: DEFAULT_EXAMPLE }, notice: link.message };
    const draft = mode.embed ? null : loadDraft(localStorage);
    return { state: draft ?? { example: DEFAULT_EXAMPLE } };
  }

  return {
    openFirst() {
      const first = firstState();
      dispatch({ type: 'restore', state: first.state });
      if (first.notice) dispatch({ type: 'notice', level: 'error', message: first.notice });
    },
  };
}
