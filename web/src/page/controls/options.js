// options.js — the planner option switches in the top bar (Broadcast rule, Resident sources), the plan pane's
// Numerics select and the Compare
// button, turned into events.
//
// Contract: installOptions({store, dispatch}) wires #opt-broadcast and #opt-resident ('set-option' with the
// box's value), #opt-numerics (a select: 'set-option' numerics false, true or 'parity') and #compare-toggle ('set-compare': the default pair for the current strategy, or null to
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
  // Numerics (docs/design.md §18): off, the notes and the evaluator, or eager parity as well.
  $('opt-numerics').addEventListener('change', (e) =>
    dispatch({
      type: 'set-option',
      key: 'numerics',
      value: { off: false, on: true, parity: 'parity' }[e.target.value],
    }),
  );
  $('compare-toggle').addEventListener('click', () => {
    const s = store.getState();
    dispatch({ type: 'set-compare', pair: s.compare ? null : defaultPair(s.options.strategy) });
  });
}
