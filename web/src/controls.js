// controls.js — the page's buttons, menus, dialogs and keyboard shortcuts, turned into events.
//
// Contract: installControls(ctx) wires index.html's controls once. Each control dispatches an event to the
// store or calls a view method (fit, centre, export); none of them changes state directly. Shortcuts:
// Ctrl/Cmd+Z undo, Ctrl/Cmd+Shift+Z or Ctrl+Y redo, Ctrl/Cmd+F find, Delete remove, A add op, C connect,
// F fit, B colour by bytes moved, Escape clear — single keys only when focus is not in a text field. In Find,
// Enter selects the op with exactly that name, else the first match. Browser-only; shown by
// tests/browser/page-*.test.mjs.

import { h } from './dom.js';
import { GALLERY } from './gallery.js';
import { encodeState, embedSnippet } from './url-state.js';
import { ALL_KINDS, categoryOf } from './op-kinds.js';
import { refTo, uniqueName } from './graph-edit.js';
import { opLabel, parseGraphText } from './graph-text.js';
import { parseShape } from './selection-panel.js';
import { planMarkdown } from './plan-markdown.js';

const $ = (id) => document.getElementById(id);
const FIND_SUGGESTIONS = 2000;

// Copy text to the clipboard; true when it worked.
async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const ta = h('textarea', { style: { position: 'fixed', opacity: '0' } }, text);
    document.body.append(ta);
    ta.select();
    const ok = document.execCommand('copy');
    ta.remove();
    return ok;
  }
}

function download(name, blob) {
  const a = h('a', { href: URL.createObjectURL(blob), download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

// The page URL for a state, with optional query flags (embed, editable, json).
function shareUrl(state, examples, flags = []) {
  const base = `${location.origin}${location.pathname}`;
  const q = flags.length ? `?${flags.join('&')}` : '';
  return `${base}${q}#${encodeState(state, examples[state.example])}`;
}

export function installControls({ store, dispatch, editor, graphView, editable, mode, dtypes, examples, connectOps }) {
  const notice = (message, level = 'info') => dispatch({ type: 'notice', level, message });

  // Gallery: one link per example, so each opens by link (and middle-click opens a new tab).
  $('gallery').replaceChildren(...GALLERY.map((ex) => h('li', {},
    h('a', { class: 'menu-item', href: `#example=${ex.id}`, 'data-example': ex.id, 'data-testid': `example-${ex.id}`,
      onclick: () => { $('examples-menu').open = false; } },
    h('strong', {}, ex.title), h('span', {}, ex.blurb)))));
  for (const menu of document.querySelectorAll('details.menu')) {
    document.addEventListener('click', (e) => { if (!menu.contains(e.target)) menu.open = false; });
    menu.addEventListener('keydown', (e) => { if (e.key === 'Escape') { menu.open = false; menu.querySelector('summary').focus(); } });
  }

  $('opt-broadcast').addEventListener('change', (e) => dispatch({ type: 'set-option', key: 'broadcast', value: e.target.checked }));
  $('opt-resident').addEventListener('change', (e) => dispatch({ type: 'set-option', key: 'resident_sources', value: e.target.checked }));
  $('notice-close').addEventListener('click', () => dispatch({ type: 'dismiss-notice' }));

  // Share and embed.
  $('copy-link').addEventListener('click', async () => {
    const url = shareUrl(store.getState(), examples);
    notice(await copyText(url) ? 'Link copied. Anyone who opens it sees this graph and these numbers.' : `Copy this link: ${url}`);
  });
  const snippet = () => {
    const flags = ['embed'];
    if ($('embed-editable').checked) flags.push('editable');
    if ($('embed-json').checked) flags.push('json');
    return embedSnippet(shareUrl(store.getState(), examples, flags));
  };
  const refreshSnippet = () => { $('embed-snippet').value = snippet(); };
  $('embed-editable').addEventListener('change', refreshSnippet);
  $('embed-json').addEventListener('change', refreshSnippet);
  $('embed-button').addEventListener('click', () => { refreshSnippet(); $('embed-dialog').showModal(); });
  $('embed-copy').addEventListener('click', async () => {
    $('embed-copy').textContent = await copyText(snippet()) ? 'Copied ✓' : 'Select and copy';
    setTimeout(() => { $('embed-copy').textContent = 'Copy snippet'; }, 1500);
  });
  if (mode.embed) $('open-full').href = shareUrl(store.getState(), examples);
  store.subscribe((s, prev) => { if (mode.embed && s.text !== prev.text) $('open-full').href = shareUrl(s, examples); });

  // Export.
  const closeExport = () => { $('export-menu').open = false; };
  $('export-json').addEventListener('click', () => {
    const { plan } = store.getState();
    closeExport();
    if (plan) download('fusion-plan.json', new Blob([`${JSON.stringify(plan, null, 2)}\n`], { type: 'application/json' }));
  });
  $('export-png').addEventListener('click', async () => {
    closeExport();
    download('fusion-graph.png', await graphView.png());
  });
  $('export-markdown').addEventListener('click', async () => {
    const { graph, plan } = store.getState();
    closeExport();
    if (plan) notice(await copyText(planMarkdown(graph, plan)) ? 'The plan is on the clipboard as a Markdown table.' : 'Copying failed.');
  });

  // Graph tools.
  const deleteSelected = () => {
    const sel = store.getState().selection;
    if (!editable || !sel) return;
    if (sel.kind === 'op') dispatch({ type: 'edit-graph', edit: { type: 'remove', op: sel.id } });
    if (sel.kind === 'edge') dispatch({ type: 'edit-graph', edit: { type: 'disconnect', ...sel.id } });
  };
  let connecting = false;
  const setConnect = (on) => {
    connecting = on && editable;
    $('connect-mode').setAttribute('aria-pressed', String(connecting));
    graphView.setConnectMode(connecting);
    if (connecting) notice('Connect: drag from a producer to a consumer. Press C or Escape to stop.');
  };
  $('connect-mode').addEventListener('click', () => setConnect(!connecting));
  $('delete-selected').addEventListener('click', deleteSelected);
  $('undo').addEventListener('click', () => dispatch({ type: 'undo' }));
  $('redo').addEventListener('click', () => dispatch({ type: 'redo' }));
  $('fit').addEventListener('click', () => graphView.fit());
  const toggleBytes = () => dispatch({ type: 'set-color-by', value: store.getState().colorBy === 'bytes' ? 'group' : 'bytes' });
  $('color-bytes').addEventListener('click', toggleBytes);
  graphView.cy.on('dbltap', (e) => { if (e.target === graphView.cy && editable) openAdd(); });

  // Find: highlight ops whose name or kind contains the query; Enter selects and centres the one so named, or
  // the first.
  const matches = () => {
    const q = $('find').value.trim().toLowerCase();
    const { graph } = store.getState();
    if (!q || !graph) return [];
    return graph.ops.flatMap((op, i) => (opLabel(graph, i).toLowerCase().includes(q) || String(op.kind).toLowerCase().includes(q) ? [i] : []));
  };
  $('find').addEventListener('input', () => graphView.setMatches(matches()));
  $('find').addEventListener('keydown', (e) => {
    if (e.key === 'Enter') {
      const found = matches();
      const { graph } = store.getState();
      const q = $('find').value.trim().toLowerCase();
      const first = found.find((i) => opLabel(graph, i).toLowerCase() === q) ?? found[0]; // an exact name wins
      if (first !== undefined) { dispatch({ type: 'select', target: { kind: 'op', id: first } }); graphView.center(first); }
    }
    if (e.key === 'Escape') { $('find').value = ''; graphView.setMatches([]); $('graph').focus(); }
  });
  store.subscribe((s, prev) => {
    if (s.graph !== prev.graph) {
      // Suggestions for the first FIND_SUGGESTIONS ops (a datalist of tens of thousands takes seconds to build).
      $('find-list').replaceChildren(...(s.graph?.ops ?? []).slice(0, FIND_SUGGESTIONS).map((_, i) => h('option', { value: opLabel(s.graph, i) })));
      graphView.setMatches(matches());
    }
  });

  // Add-op dialog.
  $('kind-list').replaceChildren(...ALL_KINDS.map((k) => h('option', { value: k }, categoryOf(k))));
  $('add-op').addEventListener('click', () => openAdd());
  const form = $('add-form');
  function openAdd() {
    if (!editable) return;
    const { graph, selection } = store.getState();
    const parsed = parseGraphText(store.getState().text);
    if (!parsed.ok) return notice('Fix the JSON first: the graph can be edited once the text parses.', 'error');
    const from = selection?.kind === 'op' && graph?.ops[selection.id] ? selection.id : null;
    const template = from !== null ? graph.ops[from] : null;
    form.kind.value = template ? 'relu' : 'input';
    form.name.value = '';
    form.shape.value = (template?.shape ?? [1024, 1024]).join(', ');
    form.dtype.replaceChildren(...dtypes.map((d) => h('option', { value: d, selected: d === (template?.dtype ?? 'f32') }, d)));
    form.connect.checked = from !== null;
    form.connect.disabled = from === null;
    form.dataset.from = from ?? '';
    $('add-connect-label').textContent = from !== null ? `Input: ${opLabel(graph, from)}` : 'Input: none (select an op first to connect it)';
    $('add-error').textContent = '';
    $('add-dialog').showModal();
    form.kind.focus();
    form.kind.select();
  }
  form.addEventListener('submit', (e) => {
    if (e.submitter?.value !== 'ok') return;
    const graph = parseGraphText(store.getState().text).graph;
    const kind = form.kind.value.trim();
    const shape = parseShape(form.shape.value);
    const name = form.name.value.trim() || uniqueName(graph, kind || 'op');
    const fail = (msg) => { e.preventDefault(); $('add-error').textContent = msg; };
    if (categoryOf(kind) === 'unknown') return fail(`“${kind}” is not an op kind; pick one from the list.`);
    if (!shape) return fail('Shape must be a list of non-negative integers, e.g. 1024, 768.');
    if (graph.ops.some((op) => op.name === name)) return fail(`An op is already called “${name}”.`);
    const from = form.dataset.from === '' ? null : Number(form.dataset.from);
    const inputs = form.connect.checked && from !== null && categoryOf(kind) !== 'source' ? [refTo(graph, from)] : [];
    dispatch({ type: 'edit-graph', edit: { type: 'add', op: { name, kind, inputs, shape, dtype: form.dtype.value } } });
  });

  // Keyboard.
  const typing = (t) => t instanceof HTMLElement && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName));
  document.addEventListener('keydown', (e) => {
    const mod = e.ctrlKey || e.metaKey;
    const inEditor = editor.hasFocus();
    if (mod && e.key.toLowerCase() === 'f' && !inEditor) { e.preventDefault(); $('find').focus(); $('find').select(); return; }
    if (inEditor || typing(e.target) || document.querySelector('dialog[open]')) return;
    if (mod && e.key.toLowerCase() === 'z' && editable) { e.preventDefault(); dispatch({ type: e.shiftKey ? 'redo' : 'undo' }); return; }
    if (mod && e.key.toLowerCase() === 'y' && editable) { e.preventDefault(); dispatch({ type: 'redo' }); return; }
    if (mod || e.altKey) return;
    if (e.key === 'Delete' || e.key === 'Backspace') { e.preventDefault(); deleteSelected(); }
    else if (e.key === 'Escape') { setConnect(false); dispatch({ type: 'select', target: null }); }
    else if (e.key === 'a' && editable) { e.preventDefault(); openAdd(); }
    else if (e.key === 'c' && editable) setConnect(!connecting);
    else if (e.key === 'f') graphView.fit();
    else if (e.key === 'b') toggleBytes();
  });
  return { connectOps };
}
