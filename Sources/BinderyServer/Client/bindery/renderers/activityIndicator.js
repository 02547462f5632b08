// An `activityIndicator` (UIActivityIndicatorView): a spinner while isAnimating.
import { h } from "../dom.js";

export default {
  create: () => h("span", { class: "bd-spinner", role: "img", "aria-label": "Working" }),
  props: {
    isAnimating(el, v) {
      el.classList.toggle("bd-animating", v === true);
      el.setAttribute("aria-label", v === true ? "Working" : "Idle");
    },
  },
};
