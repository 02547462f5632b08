// A `pickerView` (UIPickerView, one component): a <select> of its `items` (row titles);
// a choice is valueChanged with the row index (rx.itemSelected gets it as (row, 0)).
import { h, wants } from "../dom.js";

export default {
  control: true,
  labelable: true,
  valueProp: "selectedRow",
  create: () => h("select", { class: "bd-input bd-picker" }),
  wire(el, send) {
    el.addEventListener("change", () => wants(el, "valueChanged") && send("valueChanged", el.selectedIndex));
  },
  props: {
    items(el, titles, w) {
      el.replaceChildren(...(titles ?? []).map((t, i) => h("option", { value: String(i), text: String(t) })));
      const row = w?.props.selectedRow;
      if (typeof row === "number" && row < el.options.length) el.selectedIndex = row;
    },
    selectedRow(el, v) { if (typeof v === "number" && v >= 0 && v < el.options.length) el.selectedIndex = v; },
  },
};
