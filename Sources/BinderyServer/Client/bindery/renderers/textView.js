// A `textView` (UITextView): a multi-line <textarea>; Return is a new line. Focus →
// editingDidBegin, typing → editingChanged (the whole text), blur → editingDidEnd
// (RxCocoa's didBeginEditing, didChange, didEndEditing).
import { h, wants, setInputValue } from "../dom.js";

export default {
  control: true,
  typing: true,
  labelable: true,
  valueProp: "text",
  valueEvent: "editingChanged",
  create: () => h("textarea", { class: "bd-input bd-textview", rows: "5" }),
  wire(el, send) {
    el.addEventListener("focus", () => wants(el, "editingDidBegin") && send("editingDidBegin"));
    el.addEventListener("input", () => wants(el, "editingChanged") && send("editingChanged", el.value, { rate: true }));
    el.addEventListener("blur", () => wants(el, "editingDidEnd") && send("editingDidEnd", el.value));
  },
  props: {
    text(el, v) { setInputValue(el, v); },
    placeholder(el, v) { el.placeholder = v ?? ""; if (v && !el.labels?.length) el.setAttribute("aria-label", v); },
  },
};
