// A `view` (UIView): a box whose background colour the app sets.
import { h } from "../dom.js";

export default {
  create: () => h("div", { class: "bd-view" }),
};
