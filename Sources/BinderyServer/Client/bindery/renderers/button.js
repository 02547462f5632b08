// A `button` (UIButton): a tap sends touchUpInside (the server adds primaryActionTriggered).
import { h, wants, isInert } from "../dom.js";

export default {
  control: true,
  captionless: true, // its title is its name
  create: () => h("button", { type: "button", class: "bd-button" }),
  wire(el, send) {
    el.addEventListener("click", (e) => {
      if (el.tagName === "A") e.preventDefault();
      if (isInert(el)) return;
      if (wants(el, "touchUpInside")) send("touchUpInside");
    });
  },
  props: {
    title(el, v) {
      el.textContent = v ?? "";
      // A button without a title (an icon) is named by its accessibilityLabel instead.
      el.classList.toggle("bd-untitled", !v);
    },
    accessibilityLabel(el, v) {
      // The visible title stays the name (WCAG 2.5.3); the label only names an untitled button.
      if (v && !el.textContent) el.setAttribute("aria-label", v); else el.removeAttribute("aria-label");
    },
  },
};
