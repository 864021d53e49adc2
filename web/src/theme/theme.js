// theme.js — the page's colour theme: light, dark, or the system's (prefers-color-scheme).
//
// Contract: applyTheme(root, mode) with mode 'light' | 'dark' | 'auto' (anything else: 'auto') sets
// root.dataset.theme to the theme in force ('light' | 'dark'; 'auto' follows the system's setting, also when it
// changes later) and root.style.colorScheme to it (form controls and scroll bars follow); returns that theme.
// The page's CSS (web/styles.css) keys its dark colours on [data-theme="dark"]; views that paint with
// JavaScript (the Cytoscape graph) read it with themeOf(element). onThemeChange(root, fn) calls fn(theme)
// after each change of root's theme. savedTheme() / saveTheme(mode) keep the person's choice in localStorage
// (THEME_KEY), 'auto' when none or storage is refused. Browser-only; shown by tests/browser/page-theme.test.mjs.

export const THEME_KEY = 'fusion-playground.theme';
export const THEME_MODES = ['auto', 'light', 'dark'];

const media = () => window.matchMedia?.('(prefers-color-scheme: dark)');
const watched = new WeakMap(); // root → the media listener of its 'auto' mode

export function applyTheme(root, mode) {
  const m = THEME_MODES.includes(mode) ? mode : 'auto';
  const mq = media();
  const listener = watched.get(root);
  if (listener) mq?.removeEventListener('change', listener);
  watched.delete(root);
  const set = () => {
    const theme = m === 'auto' ? (mq?.matches ? 'dark' : 'light') : m;
    if (root.dataset.theme !== theme) {
      root.dataset.theme = theme;
      root.style.colorScheme = theme;
      root.dispatchEvent(new CustomEvent('themechange', { detail: theme }));
    }
    root.dataset.themeMode = m;
    return theme;
  };
  if (m === 'auto' && mq) {
    const onChange = () => set();
    mq.addEventListener('change', onChange);
    watched.set(root, onChange);
  }
  return set();
}

export function onThemeChange(root, fn) {
  root.addEventListener('themechange', (e) => fn(e.detail));
}

// The theme in force where el is drawn: its computed color-scheme (set by applyTheme on the page's root, by
// the element's theme attribute in its shadow root), 'light' when none says dark.
export function themeOf(el) {
  return getComputedStyle(el).colorScheme.trim() === 'dark' ? 'dark' : 'light';
}

export function savedTheme() {
  try {
    const v = localStorage.getItem(THEME_KEY);
    return THEME_MODES.includes(v) ? v : 'auto';
  } catch {
    return 'auto';
  }
}

export function saveTheme(mode) {
  try {
    localStorage.setItem(THEME_KEY, mode);
  } catch {
    // storage refused (private mode, a sandboxed iframe): the choice lasts for this visit only
  }
}
