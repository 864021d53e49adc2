// code-view.js — the selected kernel's generated code (docs/design.md §19), under the kernel in the selection panel.
//
// Contract: createCodeView({planner, dispatch}) → {element, show(state, group)}. show asks the planner (in its
// worker) for group's code in the chosen dialect — C (the default) or Triton — unless that text, options, group and
// dialect are already shown; answers to older requests are dropped. The code is shown as the core wrote it; each
// annotated load/store line (the core's `lines`) is marked as a load or a store, and its op is a link that selects
// that op on the graph. A dialect switch (two toggle buttons, keyboard reachable) and a copy button sit above it.
// A failure shows the planner's message. Nothing is computed here. Browser-only; shown by
// tests/browser/page-code.test.mjs.

import { h } from './dom.js';
import { opLabel } from '../graph/graph-text.js';
import { formatBytes } from '../present/format.js';

export function createCodeView({ planner, dispatch }) {
  let dialect = 'c';
  let shownKey = null;
  let latest = 0;
  let current = null; // {state, group}
  let codeText = '';

  const status = h('span', { class: 'code-status muted', 'data-testid': 'code-status', 'aria-live': 'polite' });
  const pre = h('pre', {
    class: 'code-text',
    'data-testid': 'code-text',
    tabindex: '0',
    'aria-label': 'Generated code',
  });
  const toggle = (value, label) =>
    h(
      'button',
      {
        class: 'btn small code-dialect',
        'data-testid': `code-dialect-${value}`,
        'aria-pressed': String(value === dialect),
        onclick: () => {
          if (dialect === value) return;
          dialect = value;
          for (const b of dialects.children) b.setAttribute('aria-pressed', String(b.dataset.testid.endsWith(value)));
          if (current) show(current.state, current.group);
        },
      },
      label,
    );
  const dialects = h(
    'span',
    { class: 'code-dialects', role: 'group', 'aria-label': 'Dialect' },
    toggle('c', 'C'),
    toggle('triton', 'Triton'),
  );
  const copy = h(
    'button',
    {
      class: 'btn small',
      'data-testid': 'code-copy',
      title: 'Copy the kernel',
      onclick: async () => {
        try {
          await navigator.clipboard.writeText(codeText);
          status.textContent = 'Copied.';
        } catch {
          status.textContent = 'Copy failed: the browser refused the clipboard.';
        }
      },
    },
    'Copy',
  );
  const element = h(
    'section',
    { class: 'code-view', 'data-testid': 'code-view', 'aria-label': 'Generated code of the kernel' },
    h('div', { class: 'code-head' }, h('strong', {}, 'Code'), dialects, copy, status),
    pre,
  );

  // One line of code behind a gutter; an annotated line's gutter links to its op ("← x" read, "→ z" written).
  function lineView(graph, text, note) {
    if (!note) return h('span', { class: 'code-line' }, h('span', { class: 'code-gutter' }), text, '\n');
    const name = graph?.ops?.[note.op] ? opLabel(graph, note.op) : `op ${note.op}`;
    const link = h(
      'a',
      {
        href: '#',
        class: 'code-op',
        title: `${note.kind === 'load' ? 'Reads' : 'Writes'} ${name}: ${formatBytes(note.bytes)}. Select it on the graph.`,
        onclick: (e) => {
          e.preventDefault();
          dispatch({ type: 'select', target: { kind: 'op', id: note.op } });
        },
      },
      `${note.kind === 'load' ? '←' : '→'} ${name}`,
    );
    return h(
      'span',
      { class: `code-line code-${note.kind}`, 'data-testid': `code-${note.kind}`, 'data-op': String(note.op) },
      h('span', { class: 'code-gutter' }, link),
      text,
      '\n',
    );
  }

  function render(graph, group) {
    codeText = group.code;
    const notes = new Map(group.lines.map((l) => [l.line, l]));
    const lines = group.code.replace(/\n$/, '').split('\n');
    pre.replaceChildren(...lines.map((text, i) => lineView(graph, text, notes.get(i + 1))));
    const loads = group.lines.filter((l) => l.kind === 'load').length;
    const stores = group.lines.length - loads;
    status.textContent = `${loads} load${loads === 1 ? '' : 's'} (${formatBytes(group.bytes_read)}), ${stores} store${stores === 1 ? '' : 's'} (${formatBytes(group.bytes_written)})`;
  }

  async function show(state, group) {
    current = { state, group };
    const key = JSON.stringify([state.text, state.options, group, dialect]);
    if (key === shownKey) return;
    shownKey = key;
    const ticket = ++latest;
    status.textContent = 'Generating…';
    const result = await planner.code(state.text, state.options, { dialect, group });
    if (ticket !== latest) return;
    if (!result?.ok) {
      pre.replaceChildren();
      codeText = '';
      status.textContent = `No code: ${result?.error?.message ?? 'the planner did not answer'}`;
      shownKey = null;
      return;
    }
    render(state.graph, result.groups[0]);
  }

  return { element, show };
}
