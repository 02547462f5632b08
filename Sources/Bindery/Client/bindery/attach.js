// attach.js — attach mode: the page's own markup is the front end. Every element with
// data-bind="<widget id>" is bound to that widget (behaving as its kind, or data-kind);
// data-prop="<property>" makes it display one property only.

/** Binds every [data-bind] element under the client's root. */
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
}
