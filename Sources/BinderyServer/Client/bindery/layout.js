// layout.js — auto-render: one field per widget, arranged by the scene's layout (rows,
// columns, grids, titled groups). Captions come only from the app: the layout's
// `caption`, the widget's `accessibilityLabel`, or a label just before a control in a
// row; a text field without one is named by its placeholder, a button by its title.
// Widget ids and kinds appear only in developer mode.

import { h, nextId } from "./dom.js";
import { rendererFor } from "./registry.js";

const ALIGN = { fill: "stretch", leading: "start", center: "center", trailing: "end", firstBaseline: "baseline" };
const LABELABLE = new Set(["INPUT", "SELECT", "TEXTAREA", "PROGRESS", "METER", "OUTPUT"]);

/**
 * Builds the auto-rendered form for a `scene` message. `bind(el, id, kind)` registers
 * each control with the client. Returns the <form>.
 */
export function renderScene(msg, { bind, dev = false }) {
  const widgets = new Map(msg.widgets.map((w) => [w.id, w]));
  const used = new Set();

  const field = (id, caption) => {
    const w = widgets.get(id);
    if (!w || used.has(id)) return null;
    used.add(id);
    return renderField(w, caption, bind, dev);
  };

  const node = (n) => {
    if (typeof n === "string") return field(n, null);
    if (!n || typeof n !== "object") return null;
    if (typeof n.widget === "string") return field(n.widget, n.caption ?? null);
    if (Array.isArray(n.row)) return stack("row", n, n.row.map(node));
    if (Array.isArray(n.column)) return stack("column", n, n.column.map(node));
    if (Array.isArray(n.grid)) {
      const el = h("div", { class: "bd-layout-grid" }, ...n.grid.map(node).filter(Boolean));
      el.style.setProperty("--bd-columns", String(Math.max(1, n.columns | 0 || 1)));
      spacing(el, n.spacing);
      return el;
    }
    if (n.group !== undefined) {
      const title = h("h2", { class: "bd-group-title", id: nextId("bd-group"), text: String(n.group) });
      return h("section", { class: "bd-layout-group", "aria-labelledby": title.id }, title, ...(n.children ?? []).map(node).filter(Boolean));
    }
    return null;
  };

  const placed = msg.layout ? [node(msg.layout)].filter(Boolean) : [];
  const rest = msg.widgets.filter((w) => !used.has(w.id)).map((w) => field(w.id, null));
  // A real form, so browsers and password managers see one; it never submits (Return in
  // a text field is editingDidEndOnExit, handled by the app on the server).
  const form = h("form", { class: "bd-form", novalidate: true }, ...placed, ...rest);
  form.addEventListener("submit", (e) => e.preventDefault());
  return form;
}

function spacing(el, value) {
  if (typeof value === "number" && value >= 0) el.style.setProperty("--bd-gap", `${value}px`);
}

function stack(axis, n, children) {
  const el = h("div", { class: `bd-layout-${axis}` }, ...children.filter(Boolean));
  if (n.alignment && ALIGN[n.alignment]) el.style.alignItems = ALIGN[n.alignment];
  if (n.distribution === "fillEqually") el.classList.add("bd-equal");
  if (n.distribution === "equalSpacing") el.classList.add("bd-spaced");
  spacing(el, n.spacing);
  if (axis === "row") labelFromNeighbours(el);
  return el;
}

/**
 * A label just before a control in a row captions that control (UIKit forms put a
 * UILabel beside the field), unless the control already has a caption.
 */
function labelFromNeighbours(row) {
  const fields = [...row.children].filter((c) => c.dataset.binderyField !== undefined);
  for (let i = 0; i + 1 < fields.length; i++) {
    const label = fields[i];
    const control = fields[i + 1];
    if (label.dataset.binderyField !== "label" || label.dataset.captioned || control.dataset.captioned) continue;
    const r = rendererFor(control.dataset.binderyField);
    if (!r.control || r.captionless) continue;
    const text = label.bdControl;
    const target = control.bdControl;
    text.id ||= nextId("bd-caption");
    target.setAttribute("aria-labelledby", text.id);
    control.dataset.captioned = "label";
    label.classList.add("bd-field-caption-label");
  }
}

/** One widget's field (caption, element, readout); also used for widgets a patch adds. */
export function renderField(w, caption, bind, dev) {
  const r = rendererFor(w.kind);
  const el = r.create(w);
  el.id = nextId("bd-w");
  const wrap = h("div", { class: `bd-field bd-field-${w.kind}`, "data-bindery-field": w.kind });
  const a11y = w.props?.accessibilityLabel;
  const container = Array.isArray(w.props?.subviews);
  const text = caption ?? (r.captionless ? null : a11y ?? null);
  if (text) {
    const labelable = LABELABLE.has(el.tagName) || r.labelable;
    const cap = labelable
      ? h("label", { class: "bd-caption", for: el.id, text })
      : h("span", { class: "bd-caption", id: nextId("bd-caption"), text });
    cap.dataset.source = caption ? "layout" : "accessibilityLabel";
    if (!labelable && w.kind !== "label") {
      // A box (a view) is an image of its colour; lists and groups are named by the
      // caption. (A label's caption is just the text before it.)
      if (w.kind === "view") el.setAttribute("role", container ? "group" : "img");
      el.setAttribute("aria-labelledby", cap.id);
    }
    el.bdCaption = cap;
    wrap.dataset.captioned = cap.dataset.source;
    wrap.append(cap);
  } else if (w.kind === "view" && !container) {
    el.setAttribute("aria-hidden", "true"); // a decorative box with no name
  }
  if (dev) wrap.append(h("code", { class: "bd-dev-id", text: `${w.id} · ${w.kind}` }));
  wrap.append(el);
  wrap.bdControl = el;
  bind(el, w.id, w.kind);
  if (r.readout) {
    // A numeric readout next to a slider: sliders have no text of their own.
    const readout = h("output", { class: "bd-readout", for: el.id, "aria-hidden": "true" });
    el.bdReadout = readout;
    wrap.classList.add("bd-has-readout");
    wrap.append(readout);
  }
  return wrap;
}
