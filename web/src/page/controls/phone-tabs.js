// phone-tabs.js — on a phone (≤ 480 px wide, styles.css) the page is one column: the Graph, JSON and Plan
// panes behind three tabs.
//
// Contract: installPhoneTabs({graphView}) wires #phone-tabs (a WAI-ARIA tablist: click or Enter picks a tab;
// ArrowLeft/ArrowRight, Home and End move between tabs and pick them; only the picked tab is in the Tab order)
// and keeps body[data-tab] = 'graph' | 'json' | 'plan' (styles.css shows that pane alone on a phone; wider
// pages show all three and ignore it). Showing the graph again resizes and fits it (Cytoscape measured a
// hidden pane as empty). Browser-only; shown by tests/browser/page-phone.test.mjs.

import { $ } from '../../views/dom.js';

export function installPhoneTabs({ graphView }) {
  const tabs = [...$('phone-tabs').querySelectorAll('[role="tab"]')];
  const pick = (tab, focus = false) => {
    const was = document.body.dataset.tab;
    for (const t of tabs) {
      const on = t === tab;
      t.setAttribute('aria-selected', String(on));
      t.tabIndex = on ? 0 : -1;
    }
    document.body.dataset.tab = tab.id.replace('tab-', '');
    if (focus) tab.focus();
    if (tab.id === 'tab-graph' && was !== 'graph') {
      graphView.cy.resize();
      graphView.fit();
    }
  };
  for (const t of tabs) {
    t.addEventListener('click', () => pick(t));
    t.addEventListener('keydown', (e) => {
      const k = tabs.indexOf(t);
      const to = { ArrowRight: k + 1, ArrowLeft: k - 1, Home: 0, End: tabs.length - 1 }[e.key];
      if (to === undefined) return;
      e.preventDefault();
      pick(tabs[(to + tabs.length) % tabs.length], true);
    });
  }
  document.body.dataset.tab = 'graph';
}
