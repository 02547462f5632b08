// A `switch` (UISwitch): a checkbox with role=switch; change → valueChanged (bool).
import { h, wants } from "../dom.js";

export default {
  control: true,
  valueProp: "isOn",
  create: () => h("input", { type: "checkbox", role: "switch", class: "bd-switch" }),
  wire(el, send) {
    el.addEventListener("change", () => wants(el, "valueChanged") && send("valueChanged", el.checked));
  },
  props: { isOn(el, v) { el.checked = v === true; } },
};
