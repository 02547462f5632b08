// A `segmentedControl` (UISegmentedControl): a radio group of buttons (or a <select> in
// attach mode). A click or an arrow key selects; valueChanged (index) only on a change.
import { h, wants } from "../dom.js";

function renderSegments(el, segments) {
  if (el.tagName === "SELECT") {
    el.replaceChildren(...segments.map((title, i) => h("option", { value: i, text: title })));
    return;
  }
  el.replaceChildren(...segments.map((title, i) =>
    h("button", { type: "button", role: "radio", "aria-checked": "false", "data-segment": i, text: title })));
}

const segmentButtons = (el) => [...el.querySelectorAll("[data-segment], button")];

function selectSegment(el, index) {
  if (el.tagName === "SELECT") { el.selectedIndex = index; return; }
  segmentButtons(el).forEach((b, i) => {
    b.setAttribute("aria-checked", String(i === index));
    if (!b.getAttribute("role")) b.setAttribute("role", "radio");
    b.tabIndex = i === index || (index < 0 && i === 0) ? 0 : -1; // roving tab stop
  });
  el.dataset.selected = index;
}

export default {
  control: true,
  valueProp: "selectedSegmentIndex",
  create: () => h("div", { class: "bd-segmented", role: "radiogroup" }),
  hydrate(el) {
    if (el.tagName !== "SELECT" && !el.getAttribute("role")) el.setAttribute("role", "radiogroup");
  },
  wire(el, send) {
    const choose = (index) => {
      if (index === Number(el.dataset.selected ?? -1)) return; // UIKit: no event when unchanged
      selectSegment(el, index);
      if (wants(el, "valueChanged")) send("valueChanged", index);
    };
    if (el.tagName === "SELECT") {
      el.addEventListener("change", () => choose(el.selectedIndex));
      return;
    }
    el.addEventListener("click", (e) => {
      const b = e.target.closest("[data-segment], button");
      if (!b || !el.contains(b) || b.disabled) return;
      choose(segmentButtons(el).indexOf(b));
    });
    el.addEventListener("keydown", (e) => {
      // Arrow keys move between segments, as in a radio group.
      const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[e.key];
      const buttons = segmentButtons(el);
      if (!step || !buttons.length || buttons[0].disabled) return;
      e.preventDefault();
      const current = Math.max(0, Number(el.dataset.selected ?? 0));
      const next = (current + step + buttons.length) % buttons.length;
      choose(next);
      buttons[next].focus();
    });
  },
  props: {
    segments(el, v) {
      // A page may write its own segment buttons; only replace them when they differ.
      const titles = segmentButtons(el).map((b) => b.textContent);
      if (el.tagName === "SELECT" || titles.join("\n") !== (v ?? []).join("\n")) renderSegments(el, v ?? []);
      selectSegment(el, Number(el.dataset.selected ?? -1));
    },
    selectedSegmentIndex(el, v) { selectSegment(el, v); },
  },
};
