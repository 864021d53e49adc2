// plan-markdown.js — a plan as a Markdown table, for issues, docs and posts.
//
// Contract: planMarkdown(graph, plan) → Markdown text: a totals line (bytes unfused/fused, speedup, kernels
// before → after) and one table row per group (kernel, ops, external inputs, outputs, bytes read, written).
// A plan with named dimensions (docs/design.md §16) also says the sizes it was made at, gives its bytes as the
// planner's formulas in those names under the totals, and adds each group's read and written formulas as two
// more columns when any of them depends on a name (formula.js draws them; a constant one is left out, its
// number says it). Every number and formula is the planner's, only formatted. Pure. Shown by
// tests/web/words.test.mjs and tests/browser/page-export.test.mjs.

import { opLabel } from '../graph/graph-text.js';
import { formatBytes, formatSpeedup } from './format.js';
import { bytesFormula, dimsText, hasNames } from './formula.js';

const cell = (s) => String(s).replace(/\|/g, '\\|');
const formulaCell = (f) => (hasNames(f) ? cell(bytesFormula(f)) : '–');

// The lines under the totals of a plan with named dimensions: the sizes, and the byte formulas with names.
function sizeLines(plan) {
  if (!plan.dims || !Object.keys(plan.dims).length) return [];
  const lines = [`At ${dimsText(plan.dims)}.`];
  const formulas = [
    ['unfused', plan.bytes_unfused_formula],
    ['fused', plan.bytes_fused_formula],
    ['saved by fusing', plan.bytes_saved_formula],
  ].filter(([, f]) => hasNames(f));
  if (formulas.length)
    lines.push(`Bytes as a function of size: ${formulas.map(([what, f]) => `${what} ${bytesFormula(f)}`).join('; ')}.`);
  return ['', ...lines];
}

export function planMarkdown(graph, plan) {
  const names = (ids) => ids.map((i) => `\`${cell(opLabel(graph, i))}\``).join(', ') || '–';
  const withFormulas = plan.groups.some((g) => hasNames(g.bytes_read_formula) || hasNames(g.bytes_written_formula));
  const lines = [
    `**Fusion plan**: ${formatBytes(plan.bytes_unfused)} → ${formatBytes(plan.bytes_fused)} moved ` +
      `(${formatSpeedup(plan.speedup_estimate)}), kernels ${plan.kernels_unfused} → ${plan.kernels_fused}`,
    ...sizeLines(plan),
    '',
    `| kernel | ops | external inputs | outputs | bytes read | bytes written |${withFormulas ? ' read, as a formula | written, as a formula |' : ''}`,
    `|---:|---|---|---|---:|---:|${withFormulas ? '---|---|' : ''}`,
  ];
  for (const g of plan.groups) {
    lines.push(
      `| ${g.id} | ${names(g.ops)} | ${names(g.inputs ?? [])} | ${names(g.outputs ?? [])} | ` +
        `${g.bytes_read} | ${g.bytes_written} |` +
        (withFormulas ? ` ${formulaCell(g.bytes_read_formula)} | ${formulaCell(g.bytes_written_formula)} |` : ''),
    );
  }
  return `${lines.join('\n')}\n`;
}
