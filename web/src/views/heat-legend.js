// heat-legend.js — the legend of the bytes-moved colouring: one swatch per bin with the planner's values.
//
// Contract: renderHeatLegend(el, bins) fills el with a title and, per bin of byte-heat.js, a swatch and
// "min – max" (or one value) in binary units, with the exact bytes and the op count as a tooltip. Only formats
// planner numbers (format.js); computes none. Browser-only; shown by tests/browser/page-heat.test.mjs.

import { h } from './dom.js';
import { formatBytes, exactBytes } from '../present/format.js';

// "12.3 MiB" or "128 B – 72.0 KiB" (one value when both ends print alike).
const range = (b) =>
  formatBytes(b.min) === formatBytes(b.max) ? formatBytes(b.min) : `${formatBytes(b.min)} – ${formatBytes(b.max)}`;

export function renderHeatLegend(el, bins) {
  el.replaceChildren(
    h('strong', {}, 'Bytes moved per op, unfused:'),
    ...bins.map((b) =>
      h(
        'span',
        {
          'data-bin': b.index,
          title: `${b.count} op${b.count === 1 ? '' : 's'}: ${exactBytes(b.min)}${b.min === b.max ? '' : ` to ${exactBytes(b.max)}`}`,
        },
        h('i', { class: 'sw', style: { background: b.color } }),
        range(b),
      ),
    ),
    ...(bins.length ? [] : [h('span', {}, 'this plan has no per-op numbers (rebuild the planner)')]),
  );
}
