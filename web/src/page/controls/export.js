// export.js — the Export menu: the graph as SVG (saved whole or as in view, or copied as text) or PNG, the plan
// as a JSON file or a Markdown table (the menu also holds "Embed in a web page…", share.js's).
//
// Contract: installExport({store, graphView, graphPane, notice}) wires #export-svg (downloads fusion-graph.svg:
// svg/svg-export.js's drawing of the graph on screen, graphPane.shownDrawing() at graphView.drawnState()'s
// positions, whole, in the theme in force), #export-svg-view (the same, only the part in view), #copy-svg (the
// whole graph's SVG text on the clipboard, said in a notice), #export-json (downloads fusion-plan.json, the
// planner's result as returned; nothing without a plan), #export-png (downloads fusion-graph.png,
// graphView.png()) and #export-markdown (copies present/plan-markdown.js's table and says so in a notice;
// nothing without a plan); each closes the menu, as does #embed-button. The SVG and Markdown writers are loaded
// on first use (the item is aria-busy meanwhile). Browser-only; shown by tests/browser/page-export.test.mjs and
// page-svg.test.mjs.

import { $ } from '../../views/dom.js';
import { graphColors } from '../../theme/palette.js';
import { themeOf } from '../../theme/theme.js';
import { copyText, download } from './copy-save.js';

// Runs fn with the menu item marked busy; a module that fails to load is said in a notice.
async function busy(id, what, notice, fn) {
  const item = $(id);
  item.setAttribute('aria-busy', 'true');
  try {
    await fn();
  } catch (e) {
    notice(`The ${what} could not load (${e?.message ?? e}).`, 'error');
  } finally {
    item.removeAttribute('aria-busy');
  }
}

export function installExport({ store, graphView, graphPane, notice }) {
  const closeExport = () => {
    $('export-menu').open = false;
  };
  // The graph on screen as SVG text (null before the first drawing), whole or only the part in view.
  const svgText = async (inView) => {
    const drawing = graphPane.shownDrawing();
    if (!drawing) return null;
    const { graphSvg } = await import('../../svg/svg-export.js');
    const { positions, viewport, colorBy } = graphView.drawnState();
    const ex = store.getState().example;
    return graphSvg({
      ...drawing,
      positions,
      viewport: inView ? viewport : null,
      colorBy,
      colors: graphColors(themeOf($('graph'))),
      title: `Fusion plan${ex ? ` of ${ex}` : ''}`,
    });
  };
  for (const [id, inView] of [
    ['export-svg', false],
    ['export-svg-view', true],
  ])
    $(id).addEventListener('click', () => {
      closeExport();
      return busy(id, 'SVG export', notice, async () => {
        const text = await svgText(inView);
        if (text) download('fusion-graph.svg', new Blob([text], { type: 'image/svg+xml' }));
      });
    });
  $('copy-svg').addEventListener('click', () => {
    closeExport();
    return busy('copy-svg', 'SVG export', notice, async () => {
      const text = await svgText(false);
      if (!text) return;
      notice((await copyText(text)) ? 'The graph is on the clipboard as SVG text.' : 'Copying failed.');
    });
  });
  $('embed-button').addEventListener('click', closeExport);
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
  $('export-markdown').addEventListener('click', () => {
    const { graph, plan } = store.getState();
    closeExport();
    if (!plan) return;
    return busy('export-markdown', 'Markdown export', notice, async () => {
      const { planMarkdown } = await import('../../present/plan-markdown.js');
      notice(
        (await copyText(planMarkdown(graph, plan)))
          ? 'The plan is on the clipboard as a Markdown table.'
          : 'Copying failed.',
      );
    });
  });
}
