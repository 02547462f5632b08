// A `datePicker` (UIDatePicker): a datetime-local input; change → valueChanged (ISO 8601, UTC).
import { h, wants, toLocalInput } from "../dom.js";

export default {
  control: true,
  valueProp: "date",
  create: () => h("input", { type: "datetime-local", class: "bd-input" }),
  wire(el, send) {
    el.addEventListener("change", () => {
      if (!el.value || !wants(el, "valueChanged")) return;
      send("valueChanged", new Date(el.value).toISOString()); // local time → ISO 8601 (UTC)
    });
  },
  props: {
    date(el, v) { const s = v ? toLocalInput(v) : ""; if (el.value !== s) el.value = s; },
    minimumDate(el, v) { if (v) el.min = toLocalInput(v); else el.removeAttribute("min"); },
    maximumDate(el, v) { if (v) el.max = toLocalInput(v); else el.removeAttribute("max"); },
  },
};
