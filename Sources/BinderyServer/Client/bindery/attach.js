// attach.js — attach mode: the page's own markup is the front end. Every element with
// data-bind="<widget id>" is bound to that widget (behaving as its kind, or data-kind);
// data-prop="<property>" makes it display one property only.
//
// What the page cannot have markup for — a presented alert (and its text fields), a
// pushed screen's widgets, the bar button items — is rendered by the client into a pool
// at the end of the root (`.bd-attach-added`); the alert shows as a modal dialog from
// there, and a navigation controller bound to a page element moves its screens' fields
// into itself (renderers/navigationController.js).
import { renderField } from "./layout.js";
import { rendererFor } from "./registry.js";

/** Binds every [data-bind] element under the client's root, and renders the presented widgets. */
export function bindMarkup(client) {
  for (const el of client.root.querySelectorAll("[data-bind]")) {
    const id = el.dataset.bind;
    const w = client.widgets.get(id);
    if (!w) {
      console.warn(`bindery: no widget '${id}' in scene '${client.scene}'`);
      continue;
    }
    client.bindElement(el, id, el.dataset.kind ?? w.kind, el.dataset.prop);
  }
  // After a resume: what was dismissed or popped meanwhile goes; what is shown is rendered.
  const pool = poolOf(client, false);
  for (const field of [...(pool?.children ?? [])]) {
    const id = field.bdControl?.dataset.widget;
    if (id && !client.widgets.has(id)) {
      rendererFor(field.dataset.binderyField).destroy?.(field.bdControl);
      field.remove();
      client.elements.delete(id);
    }
  }
  const shown = presentedIDs(client);
  renderAdded(client, [...client.widgets.values()].filter((w) => shown.has(w.id) && !client.elements.has(w.id)));
}

/** Renders `widgets` (a patch's `added`, or presented widgets on a resume) into the pool. */
export function renderAdded(client, widgets) {
  if (!widgets.length) return;
  const pool = poolOf(client, true);
  const bind = (el, id, kind) => client.bindElement(el, id, kind);
  for (const w of widgets) {
    if (client.root.querySelector?.(`[data-bind="${CSS.escape(w.id)}"]`)) continue; // the page has markup for it
    pool.append(renderField(w, null, bind, client.dev));
  }
}

/** Ids of the widgets an alert or a navigation stack shows beyond the page's own markup. */
function presentedIDs(client) {
  const ids = new Set();
  for (const w of client.widgets.values()) {
    if (w.kind === "alertController") {
      ids.add(w.id);
      for (const id of w.props.textFields ?? []) ids.add(id);
    } else if (w.kind === "navigationController") {
      (w.props.screens ?? []).forEach((s, i) => {
        // Every screen's, the root's included: a page binding the navigation controller to
        // an element lets it render the screens the page has no markup for.
        if (i > 0 || client.elements.has(w.id)) for (const id of s.widgets ?? []) ids.add(id);
        for (const id of [s.leftBarButtonItem, s.rightBarButtonItem]) if (id) ids.add(id);
      });
    }
  }
  return ids;
}

function poolOf(client, create) {
  const host = client.root === document ? document.body : client.root;
  let pool = host.querySelector(":scope > .bd-attach-added");
  if (!pool && create) {
    pool = document.createElement("div");
    pool.className = "bd-attach-added";
    host.append(pool);
  }
  return pool;
}
