// options.js — the planner option switches in the top bar (Broadcast rule, Resident sources) and the Compare
// button, turned into events.
//
// Contract: installOptions({store, dispatch}) wires #opt-broadcast and #opt-resident ('set-option' with the
// box's value), #opt-numerics and #opt-parity ('set-option' numerics: false, true or 'parity') and #compare-toggle ('set-compare': the default pair for the current strategy, or null to
// close). The boxes and the button show the state through views/page-chrome.js; the Strategy and Hardware
// pickers are views/strategy-picker.js. Browser-only; shown by tests/browser/page-share.test.mjs (the
// switches) and page-compare.test.mjs.

import { defaultPair } from '../../present/compare-model.js';
import { $ } from '../../views/dom.js';

export function installOptions({ store, dispatch }) {
  $('opt-broadcast').addEventListener('change', (e) =>
    dispatch({ type: 'set-option', key: 'broadcast', value: e.target.checked }),
  );
  $('opt-resident').addEventListener('change', (e) =>
    dispatch({ type: 'set-option', key: 'resident_sources', value: e.target.checked }),
  );
  // Numerics (docs/design.md §18): the notes and the evaluator; eager parity turns them on too.
  const numerics = () =>
    dispatch({
      type: 'set-option',
      key: 'numerics',
      value: $('opt-parity').checked ? 'parity' : $('opt-numerics').checked,
    });
  $('opt-numerics').addEventListener('change', () => {
    if (!$('opt-numerics').checked) $('opt-parity').checked = false;
    numerics();
  });
  $('opt-parity').addEventListener('change', numerics);
  $('compare-toggle').addEventListener('click', () => {
    const s = store.getState();
    dispatch({ type: 'set-compare', pair: s.compare ? null : defaultPair(s.options.strategy) });
  });
}
