// theme-helpers.mjs — shared steps of the theme, phone and SVG browser tests (not a test file itself):
// lowContrastTexts(page) lists the visible texts whose WCAG contrast against their effective background is
// below 4.5:1; axeViolations(page) runs axe-core (node_modules/axe-core) in the page and returns its serious
// and critical violations.
import { root } from './page-helpers.mjs';

// Every visible element that holds text of its own (or is a form field showing a value), with its computed
// colour and the colour under it (the first opaque background up the tree, translucent ones blended over it).
// host: a selector of an element whose shadow root is checked instead of the document.
export function lowContrastTexts(page, { min = 4.5, host = null } = {}) {
  return page.evaluate(
    ({ min, host }) => {
      const up = (e) => e.parentElement ?? e.parentNode?.host ?? null; // across a shadow root's edge
      const parse = (c) => {
        const m = c.match(/rgba?\(([^)]+)\)/);
        if (!m) return null;
        const [r, g, b, a = 1] = m[1]
          .split(/[ ,/]+/)
          .filter(Boolean)
          .map(Number);
        return { r, g, b, a };
      };
      const lum = ({ r, g, b }) => {
        const f = (v) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
        return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
      };
      const blend = (top, under) => ({
        r: top.r * top.a + under.r * (1 - top.a),
        g: top.g * top.a + under.g * (1 - top.a),
        b: top.b * top.a + under.b * (1 - top.a),
        a: 1,
      });
      const backgroundOf = (el) => {
        const layers = [];
        for (let e = el; e; e = up(e)) {
          const bg = parse(getComputedStyle(e).backgroundColor);
          if (bg && bg.a > 0) {
            layers.push(bg);
            if (bg.a >= 1) break;
          }
        }
        let c = { r: 255, g: 255, b: 255, a: 1 };
        for (const l of layers.reverse()) c = blend(l, c);
        return c;
      };
      const shown = (el) => {
        if (el.closest('[hidden], .visually-hidden, .graph, svg, :disabled, [aria-disabled="true"], option'))
          return false;
        for (let e = el; e; e = up(e)) if (Number(getComputedStyle(e).opacity) < 1) return false;
        const r = el.getBoundingClientRect();
        if (r.width < 1 || r.height < 1 || r.bottom < 0 || r.right < 0 || r.top > innerHeight || r.left > innerWidth)
          return false;
        const s = getComputedStyle(el);
        return s.visibility === 'visible' && s.display !== 'none';
      };
      const ownText = (el) =>
        [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim()) ||
        el.matches('select, input:not([type=checkbox]):not([type=range]):not([type=file]), textarea');
      const low = [];
      const scope = host ? document.querySelector(host).shadowRoot : document.body;
      for (const el of scope.querySelectorAll('*')) {
        if (el.matches('style, script')) continue;
        if (!ownText(el) || !shown(el)) continue;
        const fg = parse(getComputedStyle(el).color);
        const bg = backgroundOf(el);
        const ink = blend(fg, bg);
        const [hi, lo] = [lum(ink), lum(bg)].sort((a, b) => b - a);
        const ratio = (hi + 0.05) / (lo + 0.05);
        if (ratio < min)
          low.push(
            `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}.${el.className} "${(el.textContent || el.value || '').trim().slice(0, 30)}" ${ratio.toFixed(2)}`,
          );
      }
      return low;
    },
    { min, host },
  );
}

export async function axeViolations(page) {
  await page.addScriptTag({ path: root('node_modules/axe-core/axe.min.js') });
  const result = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.nodes
          .map((n) => n.target.join(' '))
          .slice(0, 4)
          .join(' | ')}`,
    );
}
