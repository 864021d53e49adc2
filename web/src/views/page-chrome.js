// page-chrome.js — the page's small state-driven parts: which buttons are enabled, the option boxes, the
// colouring button and its legends, the current gallery example, the embed bar's title, the Compare button,
// the notice, and the planner's version.
//
// Contract: createPageChrome({editable, graphView, catalog, dispatch}) → {render(state), setVersion(v)};
// it wires the notice's close button ('dismiss-notice') once. render reads state only: undo/redo/delete are
// enabled on editable pages when there is something to do; the colouring ('group' | 'bytes') is passed on to
// graphView when it changed; catalog() → the strategy catalog (planner/strategy-catalog.js) that names the
// strategy in the embed bar. showPageMode(mode, editable) sets the body's classes for an embed, the JSON box
// shown in one, and a read-only page (styles.css hides what they leave out). Browser-only; shown by
// tests/browser/page.test.mjs and page-embed.test.mjs.

import { findExample } from '../gallery/gallery.js';
import { labelOf } from '../planner/strategy-catalog.js';
import { $ } from './dom.js';

export function showPageMode(mode, editable) {
  document.body.classList.toggle('embed', mode.embed);
  document.body.classList.toggle('show-json', mode.showJson);
  document.body.classList.toggle('show-code', Boolean(mode.embed && mode.showCode));
  document.body.classList.toggle('read-only', !editable);
}

export function createPageChrome({ editable, graphView, catalog, dispatch }) {
  $('notice-close').addEventListener('click', () => dispatch({ type: 'dismiss-notice' }));
  let colorBy = null;
  return {
    setVersion(v) {
      $('planner-version').textContent = `planner ${v}`;
    },
    render(state) {
      $('undo').disabled = !editable || state.past.length === 0;
      $('redo').disabled = !editable || state.future.length === 0;
      $('delete-selected').disabled =
        !editable || !(state.selection?.kind === 'op' || state.selection?.kind === 'edge');
      $('opt-broadcast').checked = state.options.broadcast;
      $('opt-resident').checked = state.options.resident_sources;
      const numerics = state.options.numerics;
      $('opt-numerics').value = numerics?.parity ? 'parity' : numerics ? 'on' : 'off';
      // Eager parity is the strict planner's (the others refuse it); the choice stays while it is in use.
      $('opt-numerics').querySelector('[value="parity"]').disabled =
        (state.options.strategy ?? 'seed') !== 'seed' && !numerics?.parity;
      const heat = state.colorBy === 'bytes';
      $('color-bytes').setAttribute('aria-pressed', String(heat));
      $('heat-legend').hidden = !heat;
      $('legend').hidden = heat;
      if (state.colorBy !== colorBy) graphView.setColorBy(state.colorBy);
      colorBy = state.colorBy;
      for (const a of document.querySelectorAll('#gallery a'))
        a.setAttribute('aria-current', String(a.dataset.example === state.example));
      const ex = findExample(state.example);
      const strategy = state.options.strategy ? ` · ${labelOf(catalog(), 'strategies', state.options.strategy)}` : '';
      $('embed-example').textContent = `${ex ? ex.title : 'custom graph'}${strategy}`;
      $('compare-toggle').setAttribute('aria-pressed', String(!!state.compare));
      const n = $('notice');
      n.hidden = !state.notice;
      n.classList.toggle('error', state.notice?.level === 'error');
      $('notice-text').textContent = state.notice?.message ?? '';
    },
  };
}
