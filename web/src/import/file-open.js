// file-open.js — opening a model: the Open button (and Ctrl/Cmd+O), a .onnx or .json file dropped anywhere on
// the page, and ?onnx=<same-origin relative URL>. The import runs in a worker (import-client.js); the graph it
// gives becomes the current graph ('import-graph' event, undoable); an import error becomes a notice naming
// the node, and the graph and text stay as they were.
//
// Contract: installFileOpen({store, dispatch, editable}) wires index.html's #open-file, #file-input,
// #drop-overlay and #import-bar once, starts a ?onnx= load if the page has one, and returns
// {openFile(file), timings}. timings.last = {name, format, ops, bytes, readMs, importMs, toNumbersMs,
// toDrawnMs} for the latest import (ms from the drop, choice or page parameter; filled in as stages end).
// The status line under the top bar says what is happening (reading, importing, planning, drawing) and lists
// the importer's warnings. A read-only embed refuses files. Browser-only; shown by
// tests/browser/page-import.test.mjs.

import { $, h } from '../views/dom.js';
import { createImporter } from './import-client.js';
import { MAX_FILE_BYTES, modelUrlFromSearch, importFailure, importSummary, tooLarge } from './import-source.js';
import { formatBytes } from '../present/format.js';
import { isStale } from '../state/events.js';

const seconds = (ms) => `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;

export function installFileOpen({ store, dispatch, editable }) {
  const importer = createImporter();
  const timings = { last: null };
  let current = 0; // the latest import; an older one that ends later is dropped

  const bar = $('import-bar');
  function say(text, { busy = false, warnings = [] } = {}) {
    bar.hidden = false;
    bar.classList.toggle('busy', busy);
    $('import-text').textContent = text;
    const list = $('import-warnings');
    list.hidden = warnings.length === 0;
    list.querySelector('summary').textContent =
      `${warnings.length} warning${warnings.length === 1 ? '' : 's'} from the importer`;
    list
      .querySelector('ul')
      .replaceChildren(
        ...warnings.slice(0, 200).map((w) => h('li', {}, String(w))),
        warnings.length > 200 ? h('li', {}, `… and ${warnings.length - 200} more`) : null,
      );
  }
  const fail = (message) => {
    bar.hidden = true;
    dispatch({ type: 'notice', level: 'error', message });
  };

  // Follows the imported text through planning and drawing, for the status line and the timings.
  function follow(run, result) {
    const { text } = result;
    const show = (tail, busy) =>
      say(`${importSummary(result.name, result)} · ${tail}`, { busy, warnings: result.warnings });
    let unsubscribe = () => {};
    const drawn = new MutationObserver(() => {
      if (run.id !== current) return stop();
      if (run.toNumbersMs === null) return;
      run.toDrawnMs = performance.now() - run.t0;
      stop();
      show(`on screen ${seconds(run.toDrawnMs)} after opening`, false);
    });
    const stop = () => {
      drawn.disconnect();
      unsubscribe();
    };
    unsubscribe = store.subscribe((s) => {
      if (run.id !== current || s.text !== text) return stop();
      if (run.toNumbersMs !== null || s.planned?.text !== text) return;
      run.toNumbersMs = performance.now() - run.t0;
      if (!s.error) return show(`planned in ${seconds(run.toNumbersMs)}; drawing…`, true);
      stop();
      show('the planner found a problem in the graph: see the JSON box', false);
    });
    drawn.observe(document.body, { attributes: true, attributeFilter: ['data-plan-shown'] });
  }

  async function importBuffer(name, buffer, t0) {
    const id = ++current;
    const run = {
      id,
      t0,
      name,
      bytes: buffer.byteLength,
      readMs: performance.now() - t0,
      importMs: null,
      toNumbersMs: null,
      toDrawnMs: null,
    };
    timings.last = run;
    say(`Importing ${name} (${formatBytes(buffer.byteLength)})…`, { busy: true });
    const result = await importer.importFile(name, buffer);
    if (id !== current) return;
    run.importMs = performance.now() - t0;
    run.format = result.format;
    if (!result.ok) return fail(importFailure(name, result.error));
    run.ops = result.ops;
    const now = store.getState();
    if (now.text === result.text && now.plan && !isStale(now)) {
      run.toNumbersMs = run.toDrawnMs = performance.now() - t0;
      return say(`${importSummary(name, result)} · already open`, { warnings: result.warnings });
    }
    say(`${importSummary(name, result)} · planning…`, { busy: true, warnings: result.warnings });
    follow(run, result);
    dispatch({ type: 'import-graph', text: result.text, name });
  }

  async function openFile(file, t0 = performance.now()) {
    if (!editable) return fail('This embedded view is read-only: open the full playground to load a model.');
    if (file.size > MAX_FILE_BYTES) return fail(importFailure(file.name, { message: tooLarge(file.name, file.size) }));
    say(`Reading ${file.name} (${formatBytes(file.size)})…`, { busy: true });
    let buffer;
    try {
      buffer = await file.arrayBuffer();
    } catch (e) {
      return fail(importFailure(file.name, { message: `the file could not be read (${e?.message ?? e})` }));
    }
    return importBuffer(file.name, buffer, t0);
  }

  async function openUrl({ url, name }) {
    const t0 = performance.now();
    say(`Loading ${name}…`, { busy: true });
    let buffer;
    try {
      const response = await fetch(url, { credentials: 'same-origin' });
      if (!response.ok) throw new Error(`the server answered ${response.status} ${response.statusText}`.trim());
      const size = Number(response.headers.get('content-length'));
      if (size > MAX_FILE_BYTES) throw new Error(tooLarge(name, size));
      buffer = await response.arrayBuffer();
    } catch (e) {
      return fail(importFailure(name, { message: `it could not be loaded from ${url} (${e?.message ?? e})` }));
    }
    return importBuffer(name, buffer, t0);
  }

  // Open button, file input and Ctrl/Cmd+O.
  const input = $('file-input');
  $('open-file').addEventListener('click', () => input.click());
  input.addEventListener('change', () => {
    const [file] = input.files;
    input.value = '';
    if (file) openFile(file);
  });
  document.addEventListener('keydown', (e) => {
    if (
      (e.ctrlKey || e.metaKey) &&
      !e.shiftKey &&
      !e.altKey &&
      e.key.toLowerCase() === 'o' &&
      !document.querySelector('dialog[open]')
    ) {
      e.preventDefault();
      input.click();
    }
  });
  $('import-close').addEventListener('click', () => {
    bar.hidden = true;
  });
  installDrop(openFile, (message) => dispatch({ type: 'notice', level: 'info', message }));

  const fromLink = modelUrlFromSearch(location.search, location.href);
  if (fromLink?.ok) openUrl(fromLink);
  else if (fromLink) fail(fromLink.message);
  return { openFile, timings };
}

// Drag and drop of files anywhere on the page (captured before the JSON box, which would insert the text).
function installDrop(openFile, tell) {
  const overlay = $('drop-overlay');
  const hasFiles = (e) => [...(e.dataTransfer?.types ?? [])].includes('Files');
  let depth = 0;
  const show = (on) => {
    overlay.hidden = !on;
  };
  window.addEventListener(
    'dragenter',
    (e) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      depth++;
      show(true);
    },
    true,
  );
  window.addEventListener(
    'dragover',
    (e) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      e.stopPropagation();
      e.dataTransfer.dropEffect = 'copy';
    },
    true,
  );
  window.addEventListener(
    'dragleave',
    (e) => {
      if (!hasFiles(e)) return;
      depth = Math.max(0, depth - 1);
      if (depth === 0 || e.relatedTarget === null) show(false);
    },
    true,
  );
  window.addEventListener(
    'drop',
    (e) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      e.stopPropagation();
      depth = 0;
      show(false);
      const t0 = performance.now();
      const files = [...e.dataTransfer.files];
      if (!files.length) return;
      if (files.length > 1)
        tell(`${files.length} files were dropped; the page opens one at a time — opening ${files[0].name}.`);
      openFile(files[0], t0);
    },
    true,
  );
}
