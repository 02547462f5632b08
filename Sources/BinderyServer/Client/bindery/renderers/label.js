// A `label` (UILabel): text in a colour. Any colour the app picks stays readable: unless
// the app also gives the label a background, it sits on a black or white plate,
// whichever contrasts more with its colour (at least 4.58:1, so WCAG AA holds). Black,
// the default, is the theme's text colour instead (as UIKit's `.label` adapts).
import { h, cssColor } from "../dom.js";

/** Relative luminance (WCAG) of a `#rrggbb…` colour, or null. */
function luminance(value) {
  const m = /^#([0-9a-f]{6})/i.exec(value ?? "");
  if (!m) return null;
  const n = parseInt(m[1], 16);
  const c = [n >> 16, (n >> 8) & 255, n & 255].map((x) => {
    x /= 255;
    return x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
}

// Label's default colour, black, follows the theme's text colour (UIKit's `.label`).
const DEFAULT_TEXT = "#000000ff";

function paint(el) {
  const s = el.bdPaint ?? {};
  const text = s.text === DEFAULT_TEXT ? null : s.text;
  el.style.color = cssColor(text);
  if (s.background) {
    el.style.backgroundColor = cssColor(s.background);
    el.classList.remove("bd-plated", "bd-plate-dark", "bd-plate-light");
    return;
  }
  const l = luminance(text);
  el.style.backgroundColor = "";
  el.classList.toggle("bd-plated", l !== null);
  // Contrast with black is (l + 0.05) / 0.05, with white 1.05 / (l + 0.05): equal at l ≈ 0.179.
  el.classList.toggle("bd-plate-dark", l !== null && l > 0.179);
  el.classList.toggle("bd-plate-light", l !== null && l <= 0.179);
}

export default {
  create: () => h("span", { class: "bd-label" }),
  props: {
    text(el, v) { el.textContent = v ?? ""; },
    textColor(el, v) { (el.bdPaint ??= {}).text = v; paint(el); },
    backgroundColor(el, v) { (el.bdPaint ??= {}).background = v; paint(el); },
  },
};
