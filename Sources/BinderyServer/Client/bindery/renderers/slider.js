// A `slider` (UISlider): continuous, so every move sends valueChanged (number).
import { h, wants } from "../dom.js";

export default {
  control: true,
  valueProp: "value",
  create: () => h("input", { type: "range", class: "bd-slider", step: "any" }),
  hydrate(el) {
    // UISlider's value is continuous; a range input's default step (1) would round 0.5.
    if (!el.hasAttribute("step")) el.step = "any";
  },
  wire(el, send) {
    el.addEventListener("input", () => wants(el, "valueChanged") && send("valueChanged", el.valueAsNumber, { rate: true }));
  },
  props: {
    minimumValue(el, v) { el.min = v; },
    maximumValue(el, v) { el.max = v; },
    value(el, v) {
      if (el.valueAsNumber !== v) el.value = v;
      if (el.bdReadout) el.bdReadout.textContent = Number(v).toFixed(2);
    },
  },
  /** The numeric readout shown beside an auto-rendered slider. */
  readout: true,
};
