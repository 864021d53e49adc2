// share.js — Copy link, the Embed dialog and, in an embed, the "Open in playground" link.
//
// Contract: installShare({store, examples, mode, notice}) wires #copy-link (copies the page URL of the
// current state, share/url-state.js encodeState, and says so in a notice), #embed-button and #embed-dialog
// (an iframe snippet for this state, with ?embed and the optional editable/json flags) and, when mode.embed,
// keeps #open-full pointing at the full page for the current text and options (sizes included). examples maps
// example id → text (an unmodified example gets a readable link). Browser-only; shown by
// tests/browser/page-share.test.mjs and
// page-embed.test.mjs.

import { encodeState, embedSnippet } from '../../share/url-state.js';
import { $ } from '../../views/dom.js';
import { copyText } from './copy-save.js';

// The page URL for a state, with optional query flags (embed, editable, json).
function shareUrl(state, examples, flags = []) {
  const base = `${location.origin}${location.pathname}`;
  const q = flags.length ? `?${flags.join('&')}` : '';
  return `${base}${q}#${encodeState(state, examples[state.example])}`;
}

export function installShare({ store, examples, mode, notice }) {
  $('copy-link').addEventListener('click', async () => {
    const url = shareUrl(store.getState(), examples);
    notice(
      (await copyText(url))
        ? 'Link copied. Anyone who opens it sees this graph and these numbers.'
        : `Copy this link: ${url}`,
    );
  });
  const snippet = () => {
    const flags = ['embed'];
    if ($('embed-editable').checked) flags.push('editable');
    if ($('embed-json').checked) flags.push('json');
    return embedSnippet(shareUrl(store.getState(), examples, flags));
  };
  const refreshSnippet = () => {
    $('embed-snippet').value = snippet();
  };
  $('embed-editable').addEventListener('change', refreshSnippet);
  $('embed-json').addEventListener('change', refreshSnippet);
  $('embed-button').addEventListener('click', () => {
    refreshSnippet();
    $('embed-dialog').showModal();
  });
  $('embed-copy').addEventListener('click', async () => {
    $('embed-copy').textContent = (await copyText(snippet())) ? 'Copied ✓' : 'Select and copy';
    setTimeout(() => {
      $('embed-copy').textContent = 'Copy snippet';
    }, 1500);
  });
  if (mode.embed) $('open-full').href = shareUrl(store.getState(), examples);
  store.subscribe((s, prev) => {
    if (mode.embed && (s.text !== prev.text || s.options !== prev.options)) $('open-full').href = shareUrl(s, examples);
  });
}
