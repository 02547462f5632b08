// An `imageView` (UIImageView): an <img> of the `image` URL; its accessibilityLabel is the alt text.
import { h } from "../dom.js";

export default {
  captionless: true, // its accessibilityLabel is its alt text, not a caption
  create: () => h("img", { class: "bd-image", alt: "" }),
  props: {
    image(el, v) {
      if (v) el.src = v; else el.removeAttribute("src");
      el.classList.toggle("bd-empty", !v);
    },
    accessibilityLabel(el, v) { el.alt = v ?? ""; },
  },
};
