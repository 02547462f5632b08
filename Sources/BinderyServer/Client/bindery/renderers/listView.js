// A `listView`: a <ul> of rows keyed data-row="<row id>", from a full `items` array or
// keyed ops (insert/remove/update/move). New rows the user asked for (an answer to their
// own tap) are announced to screen readers and scrolled into view.
import { h } from "../dom.js";
import { announce } from "../status.js";

const rowText = (row, name) => {
  const v = row.fields ? row.fields[name] : row[name];
  return v === null || v === undefined ? "" : String(v);
};
const rowFieldNames = (row) => Object.keys(row.fields ?? row).filter((k) => k !== "id" && k !== "fields");
export const rowElements = (list) => [...list.children].filter((c) => c.dataset.row !== undefined);

/** One row: from the element's <template> (filling [data-field]) or a title with details. */
export function renderRow(list, row) {
  const template = list.querySelector(":scope > template");
  let li;
  if (template) {
    li = template.content.firstElementChild.cloneNode(true);
    li.querySelectorAll("[data-field]").forEach((f) => { f.textContent = rowText(row, f.dataset.field); });
  } else {
    // The wire sorts a row's fields by name, so pick the title by name, not position.
    const names = rowFieldNames(row);
    const first = ["title", "name", "text", "label"].find((n) => names.includes(n)) ?? names[0];
    const rest = names.filter((n) => n !== first);
    li = h("li", { class: "bd-row" },
      h("span", { class: "bd-row-title", "data-field": first, text: rowText(row, first) }),
      ...rest.map((name) => h("span", { class: "bd-row-detail", "data-field": name, text: rowText(row, name) })));
  }
  li.dataset.row = row.id;
  return li;
}

function markEmpty(list) {
  const empty = rowElements(list).length === 0;
  list.classList.toggle("bd-empty", empty);
  if (list.classList.contains("bd-list")) {
    // An empty list says so in text (not a pseudo-element), so screen readers hear it too.
    let note = list.querySelector(":scope > .bd-list-empty");
    if (empty && !note) list.append(h("li", { class: "bd-list-empty", text: "Nothing here yet." }));
    if (!empty) note?.remove();
  }
}

/**
 * Applies keyed list operations in order. Returns false when an op does not fit the rows
 * shown (the client then asks for a resync). `userAsked`: the rows answer the user's own
 * action, so new ones are announced and brought into view.
 */
export function applyListOps(list, ops, { userAsked = false } = {}) {
  const added = [];
  for (const op of ops) {
    const rows = rowElements(list);
    const index = op.op === "move" ? op.from : op.index;
    const limit = op.op === "insert" ? rows.length : rows.length - 1;
    if (!(index >= 0 && index <= limit)) return false;
    switch (op.op) {
      case "insert": {
        const before = rows[op.index] ?? list.querySelector(":scope > .bd-list-empty");
        const frag = document.createDocumentFragment();
        for (const r of op.rows) { const li = renderRow(list, r); added.push(li); frag.append(li); }
        list.insertBefore(frag, before);
        break;
      }
      case "remove":
        rows.slice(op.index, op.index + (op.count ?? 1)).forEach((r) => r.remove());
        break;
      case "update":
        rows[op.index]?.replaceWith(renderRow(list, op.row));
        break;
      case "move": {
        const row = rows[op.from];
        if (!row) break;
        row.remove();
        list.insertBefore(row, rowElements(list)[op.to] ?? null);
        break;
      }
      default:
        console.warn("bindery: unknown list op", op);
    }
  }
  markEmpty(list);
  const live = added.filter((li) => li.isConnected);
  if (userAsked && live.length) {
    const total = rowElements(list).length;
    announce(live.length === 1 ? `1 row added, ${total} in all.` : `${live.length} rows added, ${total} in all.`);
    // Scroll the list (not the page) so the first new row shows, as the user asked for it.
    const first = live[0];
    const top = first.offsetTop - list.offsetTop;
    if (list.scrollHeight > list.clientHeight) list.scrollTo({ top: Math.max(0, top - 8), behavior: "smooth" });
    else first.scrollIntoView({ block: "nearest", behavior: "smooth" });
  }
  return true;
}

export default {
  create: () => h("ul", { class: "bd-list", tabindex: "0" }),
  props: {
    items(el, rows) {
      rowElements(el).forEach((r) => r.remove());
      const frag = document.createDocumentFragment();
      (rows ?? []).forEach((r) => frag.append(renderRow(el, r)));
      el.insertBefore(frag, el.querySelector(":scope > .bd-list-empty"));
      markEmpty(el);
    },
  },
  ops: applyListOps,
};
