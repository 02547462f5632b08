// A `textField` (UITextField). Focus → editingDidBegin; typing → editingChanged (text);
// blur → editingDidEnd (text); Return → editingDidEndOnExit (text; the server adds
// primaryActionTriggered, so a form's Return submits as in UIKit). textContentType is
// the input's autocomplete token, so password managers and autofill work.
import { h, wants, setInputValue } from "../dom.js";

export default {
  control: true,
  typing: true,
  valueProp: "text",
  valueEvent: "editingChanged",
  create: () => h("input", { type: "text", class: "bd-input" }),
  wire(el, send) {
    el.addEventListener("focus", () => wants(el, "editingDidBegin") && send("editingDidBegin"));
    el.addEventListener("input", () => wants(el, "editingChanged") && send("editingChanged", el.value, { rate: true }));
    el.addEventListener("blur", () => wants(el, "editingDidEnd") && send("editingDidEnd", el.value));
    el.addEventListener("keydown", (e) => {
      if (e.key === "Enter" && !e.isComposing && wants(el, "editingDidEndOnExit")) {
        e.preventDefault(); // the server decides what Return does; the page never submits
        send("editingDidEndOnExit", el.value);
      }
    });
  },
  props: {
    text(el, v) { setInputValue(el, v); },
    placeholder(el, v) { el.placeholder = v ?? ""; },
    isSecureTextEntry(el, v) { if (el.tagName === "INPUT") el.type = v ? "password" : "text"; },
    textContentType(el, v) {
      if (v) el.setAttribute("autocomplete", v); else el.removeAttribute("autocomplete");
      if (v === "email" && el.type === "text") el.inputMode = "email";
      if (v === "tel" && el.type === "text") el.inputMode = "tel";
    },
  },
};
