// numerics-panel.js — the plan pane's Numerics section (docs/design.md §18): the reference evaluator's figures
// per output (fused against unfused, in the output's dtype), each kernel's notes in words, what could not be
// evaluated, and what eager parity costs in bytes.
//
// Contract: createNumericsPanel({onSelect}) → {render(state)}. Reads state.graph/plan; when the plan has no numerics
// (the option, chosen by the section's own select, page/controls/options.js, is off) it shows one line saying what
// the section is for. Every figure is the planner's (present/numerics.js arranges them; format.js
// writes bytes). Clicking a note selects its kernel. Browser-only; shown by tests/browser/page-numerics.test.mjs.

import { $, h } from './dom.js';
import { exactBytes } from '../present/format.js';
import { numericsView } from '../present/numerics.js';

// A figure as people read it: 0 as 0, else 4 significant digits.
const figure = (x) =>
  x === 0
    ? '0'
    : Number(x)
        .toPrecision(4)
        .replace(/\.?0+(e|$)/, '$1');

export function createNumericsPanel({ onSelect }) {
  let shown = {};
  return {
    render(state) {
      const { graph, plan } = state;
      if (shown.plan === plan && shown.graph === graph) return;
      shown = { plan, graph };
      const view = numericsView(graph, plan);
      $('numerics-section').hidden = !view;
      $('numerics-off').hidden = !!view;
      $('numerics-count').textContent = '';
      if (!view) return;
      $('numerics-count').textContent = `(${view.notes.length} ${view.notes.length === 1 ? 'note' : 'notes'})`;
      const parity = $('numerics-parity');
      parity.hidden = !view.parity;
      parity.textContent = view.parity
        ? `Eager parity: every rounding point kept. It costs ${view.parityCost >= 0 ? '+' : '−'}${exactBytes(Math.abs(view.parityCost))} against the same plan without it.`
        : '';
      $('numerics-outputs-body').replaceChildren(
        ...view.outputs.map((o) =>
          h(
            'tr',
            { 'data-op': o.op },
            h('td', {}, h('code', {}, o.name), h('span', { class: 'muted' }, ` ${o.dtype}`)),
            h('td', { class: 'num' }, o.elements.toLocaleString('en-US')),
            h('td', { class: 'num', title: String(o.maxAbs) }, figure(o.maxAbs)),
            h('td', { class: 'num', title: String(o.maxRel) }, figure(o.maxRel)),
            h(
              'td',
              {
                class: 'num',
                title: `${o.maxUlp}${o.special ? `; ${o.special} elements NaN or infinite on one side only` : ''}`,
              },
              o.maxUlp.toLocaleString('en-US'),
              o.special ? ' *' : '',
            ),
          ),
        ),
      );
      $('numerics-outputs-body').closest('table').hidden = !view.evaluated;
      $('numerics-notes').replaceChildren(
        ...(view.notes.length
          ? view.notes.map((n) =>
              h(
                'li',
                {
                  tabindex: 0,
                  'data-kind': n.kind,
                  onclick: () => onSelect({ kind: 'group', id: n.group }),
                  onkeydown: (e) => {
                    if (e.key === 'Enter' || e.key === ' ') {
                      e.preventDefault();
                      onSelect({ kind: 'group', id: n.group });
                    }
                  },
                },
                h('span', { class: `tag numerics-${n.kind}` }, n.tag),
                ` kernel ${n.group}: `,
                n.message,
              ),
            )
          : [
              h(
                'li',
                { class: 'muted' },
                'No kernel changes rounding, contraction, summation order, NaN handling or casts.',
              ),
            ]),
      );
      const skipped = $('numerics-skipped');
      skipped.hidden = view.skipped.length === 0;
      $('numerics-skipped-summary').textContent =
        `${view.skipped.length} ${view.skipped.length === 1 ? 'op' : 'ops'} not evaluated (fed fresh seeded data downstream)`;
      $('numerics-skipped-list').replaceChildren(
        ...view.skipped.map((s) => h('li', {}, h('code', {}, s.name), `: ${s.reason}`)),
      );
    },
  };
}
