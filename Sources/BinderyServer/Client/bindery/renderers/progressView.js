// A `progressView` (UIProgressView): a <progress> from 0 to 1.
import { h } from "../dom.js";

export default {
  labelable: true,
  create: () => h("progress", { class: "bd-progress", max: "1" }),
  props: { progress(el, v) { el.value = v ?? 0; } },
};
