// plan-markdown.js — a plan as a Markdown table, for issues, docs and posts.
//
// Contract: planMarkdown(graph, plan) → Markdown text: a totals line (bytes unfused/fused, speedup, kernels
// before → after) and one table row per group (kernel, ops, external inputs, outputs, bytes read, written).
// Every number is the planner's, only formatted. Pure. Shown by tests/web/words.test.mjs and
// tests/browser/page-export.test.mjs.

import { opLabel } from '../graph/graph-text.js';
import { formatBytes, formatSpeedup } from './format.js';

const cell = (s) => String(s).replace(/\|/g, '\\|');

export function planMarkdown(graph, plan) {
  const names = (ids) => ids.map((i) => `\`${cell(opLabel(graph, i))}\``).join(', ') || '–';
  const lines = [
    `**Fusion plan**: ${formatBytes(plan.bytes_unfused)} → ${formatBytes(plan.bytes_fused)} moved ` +
      `(${formatSpeedup(plan.speedup_estimate)}), kernels ${plan.kernels_unfused} → ${plan.kernels_fused}`,
    '',
    '| kernel | ops | external inputs | outputs | bytes read | bytes written |',
    '|---:|---|---|---|---:|---:|',
  ];
  for (const g of plan.groups) {
    lines.push(
      `| ${g.id} | ${names(g.ops)} | ${names(g.inputs ?? [])} | ${names(g.outputs ?? [])} | ` +
        `${g.bytes_read} | ${g.bytes_written} |`,
    );
  }
  return `${lines.join('\n')}\n`;
}
