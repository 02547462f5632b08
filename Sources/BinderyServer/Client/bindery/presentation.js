// presentation.js — a patch's `added` and `removed` widgets (PROTOCOL.md: an alert
// presented or dismissed, a screen pushed or popped). Added widgets are rendered as
// fields at the end of the form — in attach mode, in the root's pool (attach.js) — and
// the alert and navigation renderers then move them where they belong; removed ones lose
// their elements, after their renderer's `destroy` (the page's own markup stays).
import { rendererFor } from "./registry.js";
import { renderField } from "./layout.js";
import { applyWidgetProps } from "./patch.js";
import { renderAdded } from "./attach.js";

export function applyAddedRemoved(client, msg) {
  for (const id of msg.removed ?? []) {
    dropElements(client, id);
    client.widgets.delete(id);
  }
  const added = (msg.added ?? []).filter((w) => w && typeof w.id === "string");
  for (const w of added) client.widgets.set(w.id, { ...w, props: { ...w.props } });
  if (client.mode === "render") {
    const form = client.root.querySelector("form.bd-form") ?? client.root;
    const bind = (el, id, kind) => client.bindElement(el, id, kind);
    for (const w of added) {
      // An id already shown is replaced where it stands, not shown twice.
      const place = dropElements(client, w.id, true);
      const field = renderField(w, null, bind, client.dev);
      if (place) place.replaceWith(field); else form.append(field);
    }
  } else {
    // The page's own markup for a widget stays bound; a field rendered into the pool is
    // rendered again.
    const rendered = (id) => (client.elements.get(id) ?? []).some((b) => !b.prop && !b.el.hasAttribute("data-bind"));
    for (const w of added) if (rendered(w.id)) dropElements(client, w.id);
    renderAdded(client, added.filter((w) => !client.elements.has(w.id)));
  }
  for (const w of added) applyWidgetProps(client, client.widgets.get(w.id));
}

// Unbinds a widget's elements and takes its rendered field out of the page (the page's
// own markup stays). With `keepPlace`, the first field is left for the caller to replace
// and returned.
function dropElements(client, id, keepPlace = false) {
  let place = null;
  for (const b of client.elements.get(id) ?? []) {
    if (b.prop) continue;
    rendererFor(b.kind).destroy?.(b.el);
    if (client.mode === "render" || !b.el.hasAttribute("data-bind")) {
      const field = b.el.closest("[data-bindery-field]") ?? b.el;
      if (keepPlace && !place && field.isConnected !== false) place = field; else field.remove();
    }
  }
  client.elements.delete(id);
  return place;
}
