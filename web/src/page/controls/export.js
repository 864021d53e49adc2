// export.js — the Export menu: the plan as a JSON file, the graph as a PNG, the plan as a Markdown table.
//
// Contract: installExport({store, graphView, notice}) wires #export-json (downloads fusion-plan.json, the
// planner's result as returned; nothing without a plan), #export-png (downloads fusion-graph.png,
// graphView.png()) and #export-markdown (copies present/plan-markdown.js's table and says so in a notice;
// nothing without a plan); each closes the menu. The Markdown writer is loaded on first use (the item is
// aria-busy meanwhile). Browser-only; shown by tests/browser/page-export.test.mjs.

import { $ } from '../../views/dom.js';
import { copyText, download } from './copy-save.js';

export function installExport({ store, graphView, notice }) {
  const closeExport = () => {
    $('export-menu').open = false;
  };
  $('export-json').addEventListener('click', () => {
    const { plan } = store.getState();
    closeExport();
    if (plan)
      download('fusion-plan.json', new Blob([`${JSON.stringify(plan, null, 2)}\n`], { type: 'application/json' }));
  });
  $('export-png').addEventListener('click', async () => {
    closeExport();
    download('fusion-graph.png', await graphView.png());
  });
  $('export-markdown').addEventListener('click', async () => {
    const { graph, plan } = store.getState();
    closeExport();
    if (!plan) return;
    const item = $('export-markdown');
    item.setAttribute('aria-busy', 'true');
    try {
      const { planMarkdown } = await import('../../present/plan-markdown.js');
      notice(
        (await copyText(planMarkdown(graph, plan)))
          ? 'The plan is on the clipboard as a Markdown table.'
          : 'Copying failed.',
      );
    } catch (e) {
      notice(`The Markdown export could not load (${e?.message ?? e}).`, 'error');
    } finally {
      item.removeAttribute('aria-busy');
    }
  });
}
