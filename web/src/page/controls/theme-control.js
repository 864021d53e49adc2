// theme-control.js — the top bar's colour theme picker (Auto, Light, Dark).
//
// Contract: installThemeControl({mode}) applies the theme at once (theme/theme.js applyTheme on the document's
// root): ?theme=dark|light in the page URL (mode.theme, share/url-state.js parseMode) wins for this visit and is
// not remembered; otherwise the choice remembered in localStorage, else 'auto' (the system's
// prefers-color-scheme). The #theme select shows the mode in force; choosing one applies and remembers it.
// Views that paint with JavaScript follow through theme.js's themechange event (views/graph-view.js).
// Browser-only; shown by tests/browser/page-theme.test.mjs.

import { applyTheme, savedTheme, saveTheme } from '../../theme/theme.js';
import { $ } from '../../views/dom.js';

export function installThemeControl({ mode }) {
  const root = document.documentElement;
  const first = mode.theme ?? savedTheme();
  applyTheme(root, first);
  const select = $('theme');
  select.value = first;
  select.addEventListener('change', () => {
    applyTheme(root, select.value);
    saveTheme(select.value);
  });
}
