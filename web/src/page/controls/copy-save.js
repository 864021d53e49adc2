// copy-save.js — the two ways the page hands something out: text to the clipboard, a file to download.
//
// Contract: copyText(text) → Promise<boolean> (true when the text is on the clipboard; falls back to a hidden
// textarea and execCommand where the Clipboard API is refused); download(name, blob) saves blob as a file
// called name. Browser-only; shown by tests/browser/page-export.test.mjs and page-share.test.mjs.

import { h } from '../../views/dom.js';

export async function copyText(text) {
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

export function download(name, blob) {
  const a = h('a', { href: URL.createObjectURL(blob), download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}
