// `swipeGestureRecognizer` (UISwipeGestureRecognizer): no element of its own; it listens
// on the element of the widget in `view`. A quick pointer or touch stroke (≥ 40 px, mostly
// along one axis, under 0.8 s) in one of `direction`'s directions sends `recognized`.
// Keyboard alternative: the arrow keys while the view itself has the focus, or
// Shift+arrows anywhere inside it (announced through aria-keyshortcuts).
import { h } from "../dom.js";
import { ensureCollectionStyle } from "./collectionStyle.js";

const KEYS = { ArrowLeft: "left", ArrowRight: "right", ArrowUp: "up", ArrowDown: "down" };
const NAMES = { left: "ArrowLeft", right: "ArrowRight", up: "ArrowUp", down: "ArrowDown" };

function attach(el) {
  el.bdDetach?.();
  const target = document.querySelector(`[data-widget="${CSS.escape(el.bdView ?? "")}"]:not([data-kind$="GestureRecognizer"]):not([data-kind="refreshControl"])`);
  if (!target || !el.bdSend) return;
  const dirs = el.bdDirections ?? ["right"];
  const fire = (dir) => { if (el.bdEnabled !== false && dirs.includes(dir)) el.bdSend("recognized"); };
  if (!target.matches("button, input, select, textarea, a[href], [tabindex]")) target.tabIndex = 0;
  target.classList.add("bd-swipe-target");
  const shortcuts = new Set((target.getAttribute("aria-keyshortcuts") ?? "").split(" ").filter(Boolean));
  for (const d of dirs) shortcuts.add(`Shift+${NAMES[d]}`);
  target.setAttribute("aria-keyshortcuts", [...shortcuts].join(" "));
  let start = null;
  const down = (e) => { start = { x: e.clientX, y: e.clientY, t: e.timeStamp }; };
  const up = (e) => {
    if (!start) return;
    const dx = e.clientX - start.x;
    const dy = e.clientY - start.y;
    const quick = e.timeStamp - start.t < 800;
    start = null;
    if (!quick) return;
    if (Math.abs(dx) >= 40 && Math.abs(dx) > 1.5 * Math.abs(dy)) fire(dx > 0 ? "right" : "left");
    else if (Math.abs(dy) >= 40 && Math.abs(dy) > 1.5 * Math.abs(dx)) fire(dy > 0 ? "down" : "up");
  };
  const cancel = () => { start = null; };
  const key = (e) => {
    const dir = KEYS[e.key];
    if (!dir || e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.target.matches?.("input, textarea, select")) return;
    if (!(e.shiftKey || e.target === target)) return;
    if (!dirs.includes(dir)) return;
    e.preventDefault();
    fire(dir);
  };
  target.addEventListener("pointerdown", down);
  target.addEventListener("pointerup", up);
  target.addEventListener("pointercancel", cancel);
  target.addEventListener("keydown", key);
  el.bdDetach = () => {
    target.removeEventListener("pointerdown", down);
    target.removeEventListener("pointerup", up);
    target.removeEventListener("pointercancel", cancel);
    target.removeEventListener("keydown", key);
  };
}

export default {
  create: () => { ensureCollectionStyle(); return h("span", { class: "bd-gesture", hidden: true }); },
  wire(el, send) {
    el.bdSend = send;
    queueMicrotask(() => {
      const field = el.closest("[data-bindery-field]");
      if (field) field.hidden = true; // nothing to show: the gesture lives on its view
      attach(el);
    });
  },
  destroy(el) { el.bdDetach?.(); },
  props: {
    view(el, v) { el.bdView = v; queueMicrotask(() => attach(el)); },
    direction(el, v) { el.bdDirections = Array.isArray(v) ? v : ["right"]; queueMicrotask(() => attach(el)); },
    isEnabled(el, v) { el.bdEnabled = v; },
    isHidden() {},
  },
};
