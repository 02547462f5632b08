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
    for (const b of client.elements.get(id) ?? []) {
      if (b.prop) continue;
      rendererFor(b.kind).destroy?.(b.el);
      if (client.mode === "render" || !b.el.hasAttribute("data-bind")) (b.el.closest("[data-bindery-field]") ?? b.el).remove();
    }
    client.elements.delete(id);
    client.widgets.delete(id);
  }
  const added = (msg.added ?? []).filter((w) => w && typeof w.id === "string");
  for (const w of added) client.widgets.set(w.id, { ...w, props: { ...w.props } });
  if (client.mode === "render") {
    const form = client.root.querySelector("form.bd-form") ?? client.root;
    const bind = (el, id, kind) => client.bindElement(el, id, kind);
    for (const w of added) form.append(renderField(w, null, bind, client.dev));
  } else {
    renderAdded(client, added);
  }
  for (const w of added) applyWidgetProps(client, client.widgets.get(w.id));
}
