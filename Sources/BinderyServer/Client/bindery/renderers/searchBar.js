// A `searchBar` (UISearchBar): a search landmark holding an <input type=search> and,
// while `showsCancelButton`, a Cancel button. Typing is a text field's (editingDidBegin,
// editingChanged with the text, editingDidEnd); Return is searchButtonClicked, Cancel
// is cancelButtonClicked. Escape in the field clears it as the browser does (an edit).
import { h, wants, setInputValue } from "../dom.js";

export default {
  control: true,
  typing: true,
  valueProp: "text",
  valueEvent: "editingChanged",
  create() {
    const input = h("input", { type: "search", class: "bd-input bd-search-input", enterkeyhint: "search", "aria-label": "Search" });
    const cancel = h("button", { type: "button", class: "bd-search-cancel", text: "Cancel", hidden: true });
    const el = h("div", { class: "bd-search", role: "search" }, input, cancel);
    Object.assign(el, { bdInput: input, bdCancel: cancel });
    return el;
  },
  wire(el, send) {
    const input = el.bdInput;
    input.addEventListener("focus", () => wants(el, "editingDidBegin") && send("editingDidBegin"));
    input.addEventListener("input", () => wants(el, "editingChanged") && send("editingChanged", input.value, { rate: true }));
    input.addEventListener("blur", (e) => {
      if (e.relatedTarget === el.bdCancel) return; // Cancel ends the editing itself
      if (wants(el, "editingDidEnd")) send("editingDidEnd", input.value);
    });
    input.addEventListener("keydown", (e) => {
      if (e.key === "Enter" && !e.isComposing) { e.preventDefault(); send("searchButtonClicked"); }
    });
    el.bdCancel.addEventListener("click", () => send("cancelButtonClicked"));
  },
  props: {
    text(el, v) { setInputValue(el.bdInput, v); },
    placeholder(el, v) {
      el.bdInput.placeholder = v ?? "";
      if (!el.bdNamed) el.bdInput.setAttribute("aria-label", v || "Search");
    },
    showsCancelButton(el, v) { el.bdCancel.hidden = v !== true; },
    accessibilityLabel(el, v) {
      el.bdNamed = Boolean(v);
      if (v) el.bdInput.setAttribute("aria-label", v);
      if (v) el.setAttribute("aria-label", v);
    },
  },
};
