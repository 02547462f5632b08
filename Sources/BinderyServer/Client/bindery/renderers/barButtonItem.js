// A `barButtonItem` (UIBarButtonItem) in a navigation bar: a button titled by its
// `title`, else by its system item's word ("Edit", "Done", "Add", …); a tap is
// touchUpInside (rx.tap). The navigation renderer moves it into the bar.
import { h, wants, isInert } from "../dom.js";

const SYSTEM = {
  done: "Done", cancel: "Cancel", edit: "Edit", save: "Save", add: "Add", compose: "Compose",
  reply: "Reply", action: "Share", trash: "Delete", refresh: "Refresh", search: "Search", close: "Close",
};
const ICONS = { add: "+", trash: "🗑", refresh: "↻", close: "✕" };

function relabel(el) {
  const title = el.bdTitleText || SYSTEM[el.bdSystem] || "";
  const icon = !el.bdTitleText && ICONS[el.bdSystem];
  if (icon) {
    el.replaceChildren(h("span", { "aria-hidden": "true", text: icon }));
    el.setAttribute("aria-label", title);
  } else {
    el.textContent = title;
    el.removeAttribute("aria-label");
  }
}

export default {
  control: true,
  captionless: true,
  create: () => h("button", { type: "button", class: "bd-bar-button" }),
  wire(el, send) {
    el.addEventListener("click", () => { if (!isInert(el) && wants(el, "touchUpInside")) send("touchUpInside"); });
  },
  props: {
    title(el, v) { el.bdTitleText = v ?? ""; relabel(el); },
    systemItem(el, v) { el.bdSystem = v; relabel(el); },
    style(el, v) { el.classList.toggle("bd-bar-done", v === "done"); },
    accessibilityLabel(el, v) { if (v && !el.bdTitleText) el.setAttribute("aria-label", v); },
  },
};
