// A `collectionView` (UICollectionView with a flow layout): sections (header/footer
// titles) of tiles on a CSS grid — columns of itemWidth, gaps from the minimum spacings.
// A listbox of options (one tab stop, roving tabindex): arrows move in two dimensions
// (Up/Down by a line), Home/End, Enter/Space or a click select (itemSelected, or
// itemDeselected for a selected tile of a multiple-selection view); Alt+arrows move a
// movable tile (itemMoved). Selection is the server's: the client shows what answers say.
import { h, isInert, nextId } from "../dom.js";
import { ensureCollectionStyle } from "./collectionStyle.js";

const px = (v, d) => `${typeof v === "number" && v >= 0 ? v : d}px`;

function tile(el, item, selected) {
  const opt = h("div", {
    role: "option", class: "bd-collection-item", "data-item": item.id,
    "aria-selected": String(selected), tabindex: el.bdFocusKey === item.id ? "0" : "-1",
  });
  const p = el.bdWidget.props;
  opt.style.width = px(p.itemWidth, 50);
  opt.style.height = px(p.itemHeight, 50);
  if (item.backgroundColor) opt.style.backgroundColor = item.backgroundColor;
  if (item.image) opt.append(h("img", { class: "bd-collection-image", src: item.image, alt: "", draggable: "false" }));
  if (item.text !== undefined) opt.append(h("span", { class: "bd-collection-text", text: item.text }));
  if (item.detailText !== undefined) opt.append(h("span", { class: "bd-collection-detail", text: item.detailText }));
  opt.setAttribute("aria-label", [item.text, item.detailText].filter(Boolean).join(", ") || "item");
  if (item.canMove) opt.setAttribute("aria-keyshortcuts", "Alt+ArrowLeft Alt+ArrowRight");
  opt.bdStamp = JSON.stringify([item, selected, p.itemWidth, p.itemHeight]);
  return opt;
}

/** Groups the items by section, in the sections' order. */
function sectionsOf(el) {
  const p = el.bdWidget?.props ?? {};
  const sections = p.sections ?? [];
  const by = new Map(sections.map((s) => [s.id, []]));
  for (const item of p.items ?? []) {
    if (!by.has(item.section)) by.set(item.section, []);
    by.get(item.section).push(item);
  }
  const info = new Map(sections.map((s) => [s.id, s]));
  return [...by.entries()].map(([id, items]) => ({ id, items, header: info.get(id)?.header, footer: info.get(id)?.footer }));
}

function refresh(el) {
  if (!el.bdWidget) return;
  const p = el.bdWidget.props;
  const selected = new Set(p.selectedItems ?? []);
  const groups = sectionsOf(el);
  el.bdGroups = groups;
  el.bdKeys = groups.flatMap((g) => g.items.map((i) => i.id));
  if (!el.bdFocusKey || !el.bdKeys.includes(el.bdFocusKey)) {
    el.bdFocusKey = (p.selectedItems ?? []).find((k) => el.bdKeys.includes(k)) ?? el.bdKeys[0];
  }
  const hadFocus = el.contains(document.activeElement) ? document.activeElement.dataset?.item : undefined;
  const old = new Map([...el.querySelectorAll("[data-item]")].map((n) => [n.dataset.item, n]));
  const parts = [];
  for (const g of groups) {
    const grid = h("div", { class: "bd-collection-grid", role: "group" });
    grid.style.gridTemplateColumns = `repeat(auto-fill, ${px(p.itemWidth, 50)})`;
    grid.style.columnGap = px(p.minimumInteritemSpacing, 10);
    grid.style.rowGap = px(p.minimumLineSpacing, 10);
    if (g.header) {
      const head = h("div", { class: "bd-collection-header", id: nextId("bd-collection-header"), text: g.header });
      grid.setAttribute("aria-labelledby", head.id);
      parts.push(head);
    }
    for (const item of g.items) {
      const isSel = selected.has(item.id);
      const prev = old.get(item.id);
      const stamp = JSON.stringify([item, isSel, p.itemWidth, p.itemHeight]);
      let node;
      if (prev && prev.bdStamp === stamp) {
        node = prev;
        node.tabIndex = el.bdFocusKey === item.id ? 0 : -1;
      } else {
        node = tile(el, item, isSel);
      }
      grid.append(node);
    }
    parts.push(grid);
    if (g.footer) parts.push(h("div", { class: "bd-collection-footer", text: g.footer }));
  }
  if (!el.bdKeys.length) parts.push(h("div", { class: "bd-collection-empty", text: "No items." }));
  el.replaceChildren(...parts);
  if (hadFocus) el.querySelector(`[data-item="${CSS.escape(hadFocus)}"]`)?.focus({ preventScroll: true });
}

function focusItem(el, key) {
  if (!key) return;
  el.bdFocusKey = key;
  for (const n of el.querySelectorAll("[data-item]")) n.tabIndex = n.dataset.item === key ? 0 : -1;
  const n = el.querySelector(`[data-item="${CSS.escape(key)}"]`);
  n?.focus();
  n?.scrollIntoView?.({ block: "nearest", inline: "nearest" });
}

/** The item a line up or down from `node`: the nearest by x in the next line. */
function verticalNeighbour(el, node, down) {
  const r = node.getBoundingClientRect();
  const cx = r.left + r.width / 2;
  const nodes = [...el.querySelectorAll("[data-item]")];
  const lineTops = nodes.map((n) => n.getBoundingClientRect().top);
  const candidates = nodes.filter((_, i) => (down ? lineTops[i] > r.top + 1 : lineTops[i] < r.top - 1));
  if (!candidates.length) return null;
  const targetTop = down ? Math.min(...candidates.map((n) => n.getBoundingClientRect().top))
    : Math.max(...candidates.map((n) => n.getBoundingClientRect().top));
  const line = candidates.filter((n) => Math.abs(n.getBoundingClientRect().top - targetTop) < 1);
  line.sort((a, b) => Math.abs(a.getBoundingClientRect().left + a.offsetWidth / 2 - cx) - Math.abs(b.getBoundingClientRect().left + b.offsetWidth / 2 - cx));
  return line[0];
}

export default {
  create() {
    ensureCollectionStyle();
    return h("div", { class: "bd-collection", role: "listbox", "aria-orientation": "horizontal", id: nextId("bd-collection") });
  },
  wire(el, send) {
    const itemOf = (t) => t.closest?.("[data-item]");
    const select = (node) => {
      const p = el.bdWidget?.props ?? {};
      if (isInert(el) || p.allowsSelection === false) return;
      const key = node.dataset.item;
      node.classList.add("bd-pressed");
      setTimeout(() => node.classList.remove("bd-pressed"), 200);
      const selected = (p.selectedItems ?? []).includes(key);
      send(selected && p.allowsMultipleSelection ? "itemDeselected" : "itemSelected", undefined, { fields: { row: key } });
    };
    el.addEventListener("click", (e) => {
      const node = itemOf(e.target);
      if (!node) return;
      el.bdFocusKey = node.dataset.item;
      select(node);
    });
    el.addEventListener("keydown", (e) => {
      const node = itemOf(e.target);
      if (!node || e.target !== node || e.shiftKey) return; // Shift+arrows: a swipe's keys
      const key = node.dataset.item;
      const keys = el.bdKeys ?? [];
      const i = keys.indexOf(key);
      if (e.altKey && (e.key === "ArrowLeft" || e.key === "ArrowRight")) {
        const item = el.bdWidget.props.items.find((it) => it.id === key);
        const group = el.bdGroups.find((g) => g.id === item?.section);
        const at = group ? group.items.findIndex((it) => it.id === key) : -1;
        const to = at + (e.key === "ArrowLeft" ? -1 : 1);
        if (item?.canMove && group && to >= 0 && to < group.items.length) {
          e.preventDefault();
          send("itemMoved", undefined, { fields: { row: key, toSection: group.id, toIndex: to } });
        }
        return;
      }
      let next;
      if (e.key === "ArrowRight") next = keys[i + 1];
      else if (e.key === "ArrowLeft") next = keys[i - 1];
      else if (e.key === "Home") next = keys[0];
      else if (e.key === "End") next = keys[keys.length - 1];
      else if (e.key === "ArrowDown" || e.key === "ArrowUp") next = verticalNeighbour(el, node, e.key === "ArrowDown")?.dataset.item;
      else if (e.key === "Enter" || e.key === " ") { e.preventDefault(); select(node); return; }
      else return;
      e.preventDefault();
      if (next) focusItem(el, next);
    });
    el.addEventListener("focusin", (e) => {
      const node = itemOf(e.target);
      if (node) el.bdFocusKey = node.dataset.item;
    });
  },
  props: {
    items(el, _v, w) { el.bdWidget = w; refresh(el); },
    sections(el, _v, w) { el.bdWidget = w; refresh(el); },
    selectedItems(el, _v, w) { el.bdWidget = w; refresh(el); },
    itemWidth(el, _v, w) { el.bdWidget = w; refresh(el); },
    itemHeight(el, _v, w) { el.bdWidget = w; refresh(el); },
    minimumInteritemSpacing(el, _v, w) { el.bdWidget = w; refresh(el); },
    minimumLineSpacing(el, _v, w) { el.bdWidget = w; refresh(el); },
    scrollDirection(el, v) { el.dataset.scrollDirection = v ?? "vertical"; },
    allowsMultipleSelection(el, v) { if (v) el.setAttribute("aria-multiselectable", "true"); else el.removeAttribute("aria-multiselectable"); },
  },
  // Keyed ops: the client's cache already has them applied; tiles that did not change are kept.
  ops(el) { refresh(el); return true; },
};
