// `tapGestureRecognizer` / `longPressGestureRecognizer`: no element of their own (a
// hidden marker); they listen on the element of the widget in `view` — a click (a double
// click when numberOfTapsRequired is 2), a press held minimumPressDuration, or Enter on
// it when focused — and send `recognized`.
import { h } from "../dom.js";

function attach(el, long) {
  el.bdDetach?.();
  const target = document.querySelector(`[data-widget="${CSS.escape(el.bdView ?? "")}"]:not([data-kind$="GestureRecognizer"])`);
  if (!target || !el.bdSend) return;
  const fire = () => { if (el.bdEnabled !== false) el.bdSend("recognized"); };
  // A view that is not a control (a label, a box) becomes a button for keyboards and
  // screen readers: focusable, role=button, Enter and Space recognise the gesture.
  if (!target.matches("button, input, select, textarea, a[href], [tabindex]")) {
    target.tabIndex = 0;
    target.setAttribute("role", "button");
    target.classList.add("bd-gesture-target");
  }
  const off = [];
  const on = (type, fn) => { target.addEventListener(type, fn); off.push(() => target.removeEventListener(type, fn)); };
  if (long) {
    let timer = null;
    on("pointerdown", () => { timer = setTimeout(fire, (el.bdDuration ?? 0.5) * 1000); });
    for (const t of ["pointerup", "pointerleave", "pointercancel"]) on(t, () => clearTimeout(timer));
  } else {
    on(el.bdTaps === 2 ? "dblclick" : "click", fire);
  }
  on("keydown", (e) => {
    if ((e.key === "Enter" || (e.key === " " && target.getAttribute("role") === "button")) && e.target === target) {
      if (e.key === " ") e.preventDefault();
      fire();
    }
  });
  el.bdDetach = () => off.forEach((f) => f());
}

const recognizer = (long) => ({
  create: () => h("span", { class: "bd-gesture", hidden: true }),
  wire(el, send) {
    el.bdSend = send;
    queueMicrotask(() => {
      const field = el.closest("[data-bindery-field]");
      if (field) field.hidden = true; // nothing to show: the gesture lives on its view
      attach(el, long);
    });
  },
  destroy(el) { el.bdDetach?.(); },
  props: {
    view(el, v) { el.bdView = v; queueMicrotask(() => attach(el, long)); },
    isEnabled(el, v) { el.bdEnabled = v; },
    numberOfTapsRequired(el, v) { el.bdTaps = v; queueMicrotask(() => attach(el, long)); },
    minimumPressDuration(el, v) { el.bdDuration = v; },
    isHidden() {},
  },
});

export const tapGestureRecognizer = recognizer(false);
export const longPressGestureRecognizer = recognizer(true);
