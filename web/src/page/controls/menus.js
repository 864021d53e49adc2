// menus.js — the top bar's drop-down menus: the examples gallery, and closing any menu from outside it.
//
// Contract: installMenus() fills #gallery with one link per gallery entry (#example=<id>, with '&optimal' for an example
// shown with plan search on, so each opens by
// link and middle-click opens a new tab; choosing one closes the menu) and makes every details.menu close on
// a click outside it or on Escape (focus returns to its summary). Which example is current is drawn by
// views/page-chrome.js. Browser-only; shown by tests/browser/page-gallery.test.mjs.

import { GALLERY } from '../../gallery/gallery.js';
import { $, h } from '../../views/dom.js';

export function installMenus() {
  $('gallery').replaceChildren(
    ...GALLERY.map((ex) =>
      h(
        'li',
        {},
        h(
          'a',
          {
            class: 'menu-item',
            href: `#example=${ex.id}${ex.optimal ? '&optimal' : ''}`,
            'data-example': ex.id,
            'data-testid': `example-${ex.id}`,
            onclick: () => {
              $('examples-menu').open = false;
            },
          },
          h('strong', {}, ex.title),
          h('span', {}, ex.blurb),
        ),
      ),
    ),
  );
  for (const menu of document.querySelectorAll('details.menu')) {
    document.addEventListener('click', (e) => {
      if (!menu.contains(e.target)) menu.open = false;
    });
    menu.addEventListener('keydown', (e) => {
      if (e.key === 'Escape') {
        menu.open = false;
        menu.querySelector('summary').focus();
      }
    });
  }
}
