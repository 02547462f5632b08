// A `stackView` (UIStackView): its arranged subviews in a row or column, as a flexbox;
// the subviews' fields are placed by tree.js.
import { h } from "../dom.js";
import { placeSubviews } from "../tree.js";

const ALIGN = {
  fill: "stretch", leading: "flex-start", center: "center", trailing: "flex-end",
  firstBaseline: "baseline", lastBaseline: "last baseline",
};
const DISTRIBUTION = { fillEqually: "bd-equal", equalSpacing: "bd-spaced", equalCentering: "bd-centering" };

export default {
  create: () => h("div", { class: "bd-stack bd-layout-row" }),
  props: {
    axis(el, v) {
      el.classList.toggle("bd-layout-row", v === "horizontal");
      el.classList.toggle("bd-layout-column", v !== "horizontal");
    },
    alignment(el, v) { el.style.alignItems = ALIGN[v] ?? ""; },
    distribution(el, v) {
      for (const cls of Object.values(DISTRIBUTION)) el.classList.remove(cls);
      if (DISTRIBUTION[v]) el.classList.add(DISTRIBUTION[v]);
    },
    spacing(el, v) {
      if (typeof v === "number" && v >= 0) el.style.setProperty("--bd-gap", `${v}px`);
      else el.style.removeProperty("--bd-gap");
    },
    isLayoutMarginsRelativeArrangement(el, v) { el.classList.toggle("bd-margins", v === true); },
    arrangement(el, _v, w) { placeSubviews(el, w); },
  },
};
