// A `refreshControl` (UIRefreshControl) on the table or collection view named in `view`:
// a bar just above that view with a Refresh button and a spinner (its own field is
// hidden). The button — or, on a touch screen, pulling the view down from its top —
// sends `valueChanged`; while `isRefreshing` the spinner turns, the button is disabled
// and the view is aria-busy. The server ends it (endRefreshing).
import { h, isInert } from "../dom.js";
import { ensureCollectionStyle } from "./collectionStyle.js";

const PULL = 70; // px of pull that refreshes

function targetOf(el) {
  return document.querySelector(`[data-widget="${CSS.escape(el.bdView ?? "")}"]:not([data-kind="refreshControl"])`);
}

function attach(el) {
  el.bdDetach?.();
  const target = targetOf(el);
  if (!target || !el.bdSend) return;
  const field = el.closest("[data-bindery-field]");
  if (field) field.hidden = true; // the bar lives above its view instead
  const anchor = target.closest("[data-bindery-field]") ?? target;
  anchor.before(el.bdBar);
  el.bdButton.setAttribute("aria-controls", target.id || "");
  const pull = el.bdPull;
  // Pull to refresh on touch: a downward drag starting at the view's top. Touch events,
  // not pointer events: they keep coming while the browser pans (pointers are cancelled).
  let start = null;
  let pulled = 0;
  const down = (e) => { if (e.touches.length === 1 && target.scrollTop <= 0) { start = e.touches[0].clientY; pulled = 0; } };
  const move = (e) => {
    if (start === null) return;
    pulled = Math.max(0, e.touches[0].clientY - start);
    pull.style.height = `${Math.min(pulled, PULL)}px`;
    pull.textContent = pulled >= PULL ? "Release to refresh" : "Pull to refresh";
  };
  const up = () => {
    if (start === null) return;
    start = null;
    pull.style.height = "0";
    if (pulled >= PULL) fire(el);
  };
  const opts = { passive: true };
  target.addEventListener("touchstart", down, opts);
  target.addEventListener("touchmove", move, opts);
  target.addEventListener("touchend", up);
  target.addEventListener("touchcancel", up);
  el.bdDetach = () => {
    target.removeEventListener("touchstart", down, opts);
    target.removeEventListener("touchmove", move, opts);
    target.removeEventListener("touchend", up);
    target.removeEventListener("touchcancel", up);
  };
  show(el);
}

function fire(el) {
  if (el.bdRefreshing || isInert(el.bdButton) || el.bdEnabled === false) return;
  el.bdSend("valueChanged");
}

function show(el) {
  const on = el.bdRefreshing === true;
  el.bdSpinner.hidden = !on;
  el.bdButton.disabled = on || el.bdEnabled === false;
  el.bdStatus.textContent = on ? (el.bdTitle || "Refreshing…") : (el.bdWasRefreshing ? "Updated." : (el.bdTitle ?? ""));
  targetOf(el)?.setAttribute("aria-busy", String(on));
}

export default {
  create() {
    ensureCollectionStyle();
    const button = h("button", { type: "button", class: "bd-button bd-refresh-button", text: "↻ Refresh" });
    const spinner = h("span", { class: "bd-refresh-spinner", role: "img", "aria-label": "Refreshing", hidden: true });
    const status = h("span", { class: "bd-refresh-status", role: "status" });
    const pull = h("div", { class: "bd-refresh-pull", "aria-hidden": "true" });
    // The pull indicator over the bar; both move above the view (attach).
    const bar = h("div", { class: "bd-refresh-wrap" }, pull, h("div", { class: "bd-refresh" }, button, spinner, status));
    const el = h("div", { class: "bd-refresh-holder" });
    Object.assign(el, { bdBar: bar, bdButton: button, bdSpinner: spinner, bdStatus: status, bdPull: pull });
    return el;
  },
  wire(el, send) {
    el.bdSend = send;
    el.bdButton.addEventListener("click", () => fire(el));
    queueMicrotask(() => attach(el));
  },
  destroy(el) { el.bdDetach?.(); el.bdBar.remove(); },
  props: {
    view(el, v) { el.bdView = v; queueMicrotask(() => attach(el)); },
    isRefreshing(el, v) {
      el.bdWasRefreshing = el.bdRefreshing === true && v !== true;
      el.bdRefreshing = v === true;
      show(el);
    },
    title(el, v) { el.bdTitle = v ?? undefined; show(el); },
    isEnabled(el, v) { el.bdEnabled = v; show(el); },
    isHidden(el, v) { el.bdBar.hidden = v === true; },
  },
};
