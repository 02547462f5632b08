// registry.js — the widget-renderer registry: one renderer per widget kind
// (renderers/<kind>.js), looked up by the `kind` of the scene message's widgets.
//
// A renderer is a plain object:
//   create(widget)        → a new element (auto-render mode)
//   hydrate(el, widget)   → prepares an element the page wrote (attach mode); optional
//   wire(el, send, client) → adds DOM listeners; send(event, value?, { rate }) reports a
//                           control event (rate: a continuous edit, may be debounced);
//                           client: the page's Client, for renderers that send other
//                           messages (a documentPicker's uploads)
//   props                 → { name(el, value, widget) } applying one property
//   valueProp             → the property the user edits (guarded by seq/ack), if any
//   valueEvent            → the event that carries that value ("valueChanged" by default)
//   control               → true for controls: captioned as a form field, inert offline
//   typing                → true when it stays usable offline (text fields keep typing)
//   captionless           → true when the element names itself (a button's title)
//
// Add one with registerRenderer("myKind", { create, wire, props }) before render().

import { cssColor, setEnabled } from "./dom.js";
import { placeSubviews } from "./tree.js";

const renderers = new Map();

/** Registers (or replaces) the renderer for widgets of `kind`. */
export function registerRenderer(kind, renderer) {
  renderers.set(kind, { valueEvent: "valueChanged", ...renderer, props: { ...(renderer.props ?? {}) } });
}

/** The renderer for `kind`, or a placeholder for kinds this client does not know. */
export function rendererFor(kind) {
  return renderers.get(kind) ?? FALLBACK;
}

const messageHandlers = new Map();

/**
 * Handles server messages of a `type` the client does not know yet (a future
 * navigation or presentation message): `handler(client, msg)`.
 */
export function registerMessageHandler(type, handler) {
  messageHandlers.set(type, handler);
}

/** The handler registered for a message `type`, if any. */
export const messageHandlerFor = (type) => messageHandlers.get(type);

/** Every registered kind (for tests and the developer view). */
export const registeredKinds = () => [...renderers.keys()];

const FALLBACK = {
  props: {},
  valueEvent: "valueChanged",
  create: () => {
    const el = document.createElement("div");
    el.className = "bd-unknown";
    el.textContent = "This part of the page cannot be shown by this version of the client.";
    return el;
  },
};

/** Properties every kind takes (UIView's): background, visibility, opacity, enabled, name. */
export const commonProps = {
  subviews(el, _v, w) { placeSubviews(el, w); },
  backgroundColor(el, v) { el.style.backgroundColor = cssColor(v); },
  isHidden(el, v) { (el.closest("[data-bindery-field]") ?? el).hidden = v === true; },
  alpha(el, v) { el.style.opacity = typeof v === "number" && v < 1 ? String(v) : ""; },
  isEnabled(el, v) { setEnabled(el, v); },
  accessibilityLabel(el, v) {
    // Auto-render: the caption shows it (layout.js). Attach mode: the page's own labels
    // win; an element without any gets it as its accessible name.
    const caption = el.bdCaption;
    if (caption) { if (caption.dataset.source === "accessibilityLabel") caption.textContent = v ?? ""; return; }
    if (el.bdOwnName === undefined) {
      el.bdOwnName = Boolean(el.labels?.length || el.hasAttribute("aria-label") || el.hasAttribute("aria-labelledby"));
    }
    if (el.bdOwnName) return;
    if (v) el.setAttribute("aria-label", v); else el.removeAttribute("aria-label");
  },
};

/** Applies one property to an element bound with data-prop (display only). */
export function applyDisplayProp(el, prop, value) {
  if (prop === "textColor") el.style.color = cssColor(value);
  else if (prop === "backgroundColor") el.style.backgroundColor = cssColor(value);
  else if (prop === "isHidden") el.hidden = value === true;
  else if ("value" in el && el.tagName !== "LI" && el.tagName !== "BUTTON") el.value = value ?? "";
  else el.textContent = value === null || value === undefined ? "" : typeof value === "number" ? +value.toFixed(3) : String(value);
}
