// A `pageControl` (UIPageControl): one dot per page, the current one marked
// (aria-current=page). A click on a dot, or Left/Right/Home/End on the focused dot (one
// tab stop), picks a page: `valueChanged` with the page number (currentPage).
import { h, isInert } from "../dom.js";
import { cssColor } from "../dom.js";
import { ensureCollectionStyle } from "./collectionStyle.js";

function render(el) {
  const n = Math.max(0, el.bdCount ?? 0);
  const current = Math.min(Math.max(0, el.bdPage ?? 0), Math.max(0, n - 1));
  const hadFocus = el.contains(document.activeElement);
  const dots = [];
  for (let i = 0; i < n; i++) {
    const dot = h("button", {
      type: "button", class: "bd-page-dot", "data-page": String(i),
      "aria-label": `Page ${i + 1} of ${n}`, tabindex: i === current ? "0" : "-1",
    });
    if (i === current) dot.setAttribute("aria-current", "page");
    dots.push(dot);
  }
  el.replaceChildren(...dots);
  el.hidden = el.bdHidesSingle === true && n <= 1;
  if (hadFocus) dots[current]?.focus();
}

function pick(el, page, send) {
  const n = el.bdCount ?? 0;
  if (isInert(el) || page < 0 || page >= n || page === el.bdPage) return;
  el.bdPage = page; // shown at once; the server's answer confirms it (seq/ack)
  render(el);
  el.querySelector(`[data-page="${page}"]`)?.focus();
  send("valueChanged", page);
}

export default {
  control: true,
  valueProp: "currentPage",
  create() {
    ensureCollectionStyle();
    return h("div", { class: "bd-pages", role: "group", "aria-label": "Pages" });
  },
  wire(el, send) {
    el.addEventListener("click", (e) => {
      const dot = e.target.closest?.("[data-page]");
      if (dot) pick(el, Number(dot.dataset.page), send);
    });
    el.addEventListener("keydown", (e) => {
      const page = el.bdPage ?? 0;
      const to = { ArrowRight: page + 1, ArrowDown: page + 1, ArrowLeft: page - 1, ArrowUp: page - 1, Home: 0, End: (el.bdCount ?? 1) - 1 }[e.key];
      if (to === undefined) return;
      e.preventDefault();
      pick(el, to, send);
    });
  },
  props: {
    numberOfPages(el, v) { el.bdCount = v; render(el); },
    currentPage(el, v) { el.bdPage = v; render(el); },
    hidesForSinglePage(el, v) { el.bdHidesSingle = v; render(el); },
    pageIndicatorTintColor(el, v) { el.style.setProperty("--bd-dot", cssColor(v) || null); },
    currentPageIndicatorTintColor(el, v) { el.style.setProperty("--bd-dot-current", cssColor(v) || null); },
  },
};
