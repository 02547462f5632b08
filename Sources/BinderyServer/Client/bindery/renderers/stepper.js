// A `stepper` (UIStepper): − value +; a click sends valueChanged (stepped, clamped).
import { h, wants } from "../dom.js";

const show = (el, v) => {
  (el.bdState ??= {}).value = v;
  const out = el.querySelector("output, [data-field=value]");
  if (out) out.textContent = Number.isInteger(v) ? v : +Number(v).toFixed(3);
};

export default {
  control: true,
  valueProp: "value",
  create: () => h("div", { class: "bd-stepper", role: "group" },
    h("button", { type: "button", "data-step": "-1", "aria-label": "Decrease", text: "−" }),
    h("output", { class: "bd-stepper-value", "aria-live": "polite" }),
    h("button", { type: "button", "data-step": "1", "aria-label": "Increase", text: "+" })),
  wire(el, send) {
    el.addEventListener("click", (e) => {
      const b = e.target.closest("[data-step]");
      if (!b || b.disabled) return;
      const s = el.bdState ?? {};
      const next = Math.min(s.maximumValue ?? Infinity, Math.max(s.minimumValue ?? -Infinity,
        (s.value ?? 0) + Number(b.dataset.step) * (s.stepValue ?? 1)));
      if (next === s.value) return;
      show(el, next);
      if (wants(el, "valueChanged")) send("valueChanged", next);
    });
  },
  props: {
    value: show,
    minimumValue(el, v) { (el.bdState ??= {}).minimumValue = v; },
    maximumValue(el, v) { (el.bdState ??= {}).maximumValue = v; },
    stepValue(el, v) { (el.bdState ??= {}).stepValue = v; },
  },
};
