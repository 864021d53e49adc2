// strategy-picker.js — the Strategy and Hardware pickers: labelled <select>s in the top bar.
//
// Contract: createStrategyPicker({strategy, hardware, dispatch}) takes the two <select> elements and returns
// {setCatalog(catalog), render(state), catalog()}. setCatalog fills them from strategy-catalog.js's
// catalogFrom(...) (the planner's names with labels; each option's title is its blurb); until then the
// selects show the current choice only, disabled. render shows state.options (absent = the default; a name
// the planner's list lacks, e.g. from a hand-made link, is shown as "name (unknown)" so the planner's error
// about it makes sense). fillSelect(select, catalog, kind, value) is that filling, shared with the compare
// view's pickers. Choosing dispatches
// {type:'set-option', key:'strategy'|'hardware', value}. Native selects: keyboard and screen readers work as
// everywhere. Browser-only; shown by tests/browser/page-strategies.test.mjs.

import { h } from './dom.js';
import { catalogFrom, labelOf } from '../planner/strategy-catalog.js';
import { DEFAULT_CHOICES } from '../state/options.js';
import './strategies.css';

// Fill a select with the catalog's entries of one kind, plus the current value when the list lacks it.
export function fillSelect(select, catalog, kind, value) {
  const entries = catalog[kind];
  const loaded = entries.length > 0;
  const options = entries.map((e) => h('option', { value: e.name, title: e.blurb }, e.label));
  if (!entries.some((e) => e.name === value)) {
    options.push(h('option', { value }, loaded ? `${value} (unknown)` : labelOf(catalog, kind, value)));
  }
  select.replaceChildren(...options);
  select.value = value;
  select.disabled = !loaded;
}

export function createStrategyPicker({ strategy, hardware, dispatch }) {
  let catalog = catalogFrom();
  let shown = null;
  const pick = (key) => (e) => dispatch({ type: 'set-option', key, value: e.target.value });
  strategy.addEventListener('change', pick('strategy'));
  hardware.addEventListener('change', pick('hardware'));

  function render(state) {
    const s = state.options.strategy ?? DEFAULT_CHOICES.strategy;
    const hw = state.options.hardware ?? DEFAULT_CHOICES.hardware;
    if (shown && shown.catalog === catalog && shown.s === s && shown.hw === hw) return;
    fillSelect(strategy, catalog, 'strategies', s);
    fillSelect(hardware, catalog, 'hardware', hw);
    strategy.title = catalog.strategies.find((e) => e.name === s)?.blurb ?? '';
    hardware.title = catalog.hardware.find((e) => e.name === hw)?.blurb ?? '';
    shown = { catalog, s, hw };
  }

  return {
    setCatalog(next) {
      catalog = next;
    },
    render,
    catalog: () => catalog,
  };
}
