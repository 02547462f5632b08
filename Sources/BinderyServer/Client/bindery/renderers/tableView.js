// A `tableView` (UITableView): sections with header/footer titles and cells (text,
// detail, image, accessory), selection, editing (delete/insert buttons, reorder by drag,
// by "Move up/down" buttons or Alt+Arrow keys). Row events name rows by key
// (PROTOCOL.md: Table views); selection and order are the server's: the client shows
// what the answers say.
//
// Virtualised: headers, rows and footers have fixed heights, so the table computes every
// line's offset and keeps only the lines in view (plus a margin) in the DOM, between two
// spacers; a 10,000-row table holds a few dozen row elements. role=grid with
// aria-rowcount / aria-rowindex, so screen readers know where they are; one tab stop
// (roving tabindex), arrows move between rows, Enter/Space select.
//
// Windowed (PROTOCOL.md: Large tables): a large one-section table arrives with its first
// rows and `itemCount`; the rows not yet loaded are holes in the cached `items`, shown
// as placeholders while the table asks for them (`rows` requests) as they scroll into view.
import { h, isInert, nextId } from "../dom.js";
import { registerMessageHandler } from "../registry.js";

const ROW = 56; // px, a cell (subtitle cells fit two lines)
const HEADER = 40;
const FOOTER = 36;
const OVERSCAN = 8; // lines kept beyond each edge of the view
const MAX_HEIGHT = 480; // px, the table's viewport when it has more rows than fit

const ACCESSORY_BUTTONS = new Set(["detailButton", "detailDisclosureButton"]);
const ROWS_PER_REQUEST = 200; // rows asked for at once (aligned blocks)
const REQUEST_TIMEOUT_MS = 5_000; // a block asked for and not answered is asked again after this
const REQUEST_SETTLE_MS = 60; // holes are asked for once scrolling pauses this long (a fling asks once)

/** A windowed snapshot's `itemCount`: the cached rows become that long (holes = not loaded). */
function extendWindow(w) {
  if (typeof w?.props.itemCount !== "number") return;
  const items = (w.props.items ??= []);
  if (items.length < w.props.itemCount) items.length = w.props.itemCount;
  delete w.props.itemCount;
}

// A `rows` answer: fill the holes, then repaint the table's elements.
registerMessageHandler("rows", (client, msg) => {
  const w = client.widgets.get(msg.target);
  if (!w || !Array.isArray(msg.rows)) return;
  const items = (w.props.items ??= []);
  if (items.length !== msg.count) { client.resync(); return; } // out of step: start again
  msg.rows.forEach((row, i) => { items[msg.from + i] = row; });
  for (const b of client.elements.get(msg.target) ?? []) {
    if (b.prop) continue;
    b.el.bdPending?.delete(msg.from - (msg.from % ROWS_PER_REQUEST));
    refresh(b.el);
  }
});

/** Asks for the blocks of rows that hold the holes among `lines` (each block once at a time). */
function requestHoles(el, lines) {
  const client = el.bdClient;
  const id = el.dataset.widget;
  if (!client || !id) return;
  const pending = (el.bdPending ??= new Map());
  const now = performance.now();
  const total = el.bdWidget?.props.items?.length ?? 0;
  for (const l of lines) {
    if (!l.hole) continue;
    const from = l.rowIndex - (l.rowIndex % ROWS_PER_REQUEST);
    if (pending.has(from) && now - pending.get(from) < REQUEST_TIMEOUT_MS) continue;
    pending.set(from, now);
    client.requestRows(id, from, Math.min(total, from + ROWS_PER_REQUEST));
  }
}

/** The table's lines (headers, rows, footers) with their offsets, from the cached props. */
function layoutLines(el) {
  const w = el.bdWidget;
  extendWindow(w);
  const rows = w?.props.items ?? [];
  const sections = w?.props.sections ?? [];
  const bySection = new Map(sections.map((s) => [s.id, []]));
  // Holes (rows not loaded yet) only occur in one-section tables: they belong to it.
  const holeSection = sections[0]?.id;
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i];
    const key = r ? r.section : holeSection;
    if (!bySection.has(key)) bySection.set(key, []);
    bySection.get(key).push(r ?? null);
  }
  const lines = [];
  const order = sections.length ? [...bySection.keys()] : [undefined];
  const sectionInfo = new Map(sections.map((s) => [s.id, s]));
  let top = 0;
  let rowIndex = 0;
  for (const key of order) {
    const s = sectionInfo.get(key);
    const sectionRows = key === undefined ? rows : bySection.get(key);
    if (s?.header) { lines.push({ type: "header", section: key, text: s.header, top, height: HEADER }); top += HEADER; }
    sectionRows.forEach((row, i) => {
      lines.push({ type: "row", row, hole: row === null, section: key, indexInSection: i, sectionCount: sectionRows.length, rowIndex: rowIndex++, top, height: ROW });
      top += ROW;
    });
    if (s?.footer) { lines.push({ type: "footer", section: key, text: s.footer, top, height: FOOTER }); top += FOOTER; }
  }
  el.bdLines = lines;
  el.bdHeight = top;
  el.bdSectionOrder = order;
  el.bdBySection = bySection;
  el.bdRowLines = new Map(lines.filter((l) => l.type === "row" && !l.hole).map((l) => [l.row.id, l]));
  el.bdRowCount = rowIndex;
}

/** The first line whose bottom is below `y` (binary search over the fixed offsets). */
function lineAt(lines, y) {
  let lo = 0;
  let hi = lines.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (lines[mid].top + lines[mid].height <= y) lo = mid + 1; else hi = mid;
  }
  return lo;
}

const label = (row) => row.text || row.detailText || "row";

function cellElement(el, line) {
  const row = line.row;
  const w = el.bdWidget.props;
  const editing = w.isEditing === true;
  const selected = (w.selectedRows ?? []).includes(row.id);
  const tr = h("div", {
    role: "row",
    class: `bd-cell bd-cell-${row.style ?? "default"}`,
    "data-row": row.id,
    "aria-rowindex": String(line.index + 1),
    "aria-selected": String(selected),
    tabindex: el.bdFocusKey === row.id ? "0" : "-1",
  });
  tr.bdKey = row.id;
  tr.style.top = `${line.top}px`;
  if (row.backgroundColor) tr.style.backgroundColor = row.backgroundColor;
  tr.dataset.selectionStyle = row.selectionStyle ?? "default";
  const main = h("div", { role: "gridcell", class: "bd-cell-main" });
  if (row.image) main.append(h("img", { class: "bd-cell-image", src: row.image, alt: "" }));
  const texts = h("div", { class: "bd-cell-texts" });
  if (row.text !== undefined) texts.append(h("span", { class: "bd-cell-text", text: row.text }));
  if (row.detailText !== undefined && (row.style ?? "default") !== "default") {
    texts.append(h("span", { class: "bd-cell-detail", text: row.detailText }));
  }
  main.append(texts);
  const controls = [];
  const name = label(row);
  if (editing && row.canEdit !== false && (row.editingStyle ?? "delete") !== "none") {
    const insert = row.editingStyle === "insert";
    controls.push(h("button", {
      type: "button", class: `bd-cell-edit ${insert ? "bd-cell-insert" : "bd-cell-delete"}`,
      "data-action": insert ? "itemInserted" : "itemDeleted", "aria-label": `${insert ? "Insert" : "Delete"} ${name}`, tabindex: "-1",
    }, h("span", { "aria-hidden": "true", text: insert ? "+" : "−" })));
  }
  const accessory = editing ? row.editingAccessoryType : row.accessoryType;
  if (accessory && accessory !== "none") {
    if (ACCESSORY_BUTTONS.has(accessory)) {
      controls.push(h("button", {
        type: "button", class: "bd-cell-info", "data-action": "itemAccessoryButtonTapped",
        "aria-label": `More about ${name}`, tabindex: "-1",
      }, h("span", { "aria-hidden": "true", text: "i" })));
    }
    if (accessory === "checkmark") main.append(h("span", { class: "bd-cell-check", text: "✓", "aria-label": "checked", role: "img" }));
    if (accessory === "disclosureIndicator" || accessory === "detailDisclosureButton") {
      main.append(h("span", { class: "bd-cell-chevron", "aria-hidden": "true", text: "›" }));
    }
  }
  if (editing && row.canMove && row.showsReorderControl !== false) {
    tr.draggable = true;
    tr.setAttribute("aria-keyshortcuts", "Alt+ArrowUp Alt+ArrowDown"); // the keyboard's reorder, announced
    const first = line.rowIndex === 0;
    const last = line.rowIndex === el.bdRowCount - 1;
    controls.push(
      h("button", { type: "button", class: "bd-cell-move", "data-move": "up", "aria-label": `Move ${name} up`, disabled: first, tabindex: "-1" }, h("span", { "aria-hidden": "true", text: "↑" })),
      h("button", { type: "button", class: "bd-cell-move", "data-move": "down", "aria-label": `Move ${name} down`, disabled: last, tabindex: "-1" }, h("span", { "aria-hidden": "true", text: "↓" })),
      h("span", { class: "bd-cell-grip", "aria-hidden": "true", text: "≡" }));
  }
  tr.append(main);
  if (controls.length) tr.append(h("div", { role: "gridcell", class: "bd-cell-controls" }, ...controls));
  return tr;
}

/** A row not loaded yet: its place, marked busy, until its `rows` answer comes. */
function placeholderElement(line) {
  const tr = h("div", { role: "row", class: "bd-cell bd-cell-placeholder", "aria-rowindex": String(line.index + 1), "aria-busy": "true" },
    h("div", { role: "gridcell", class: "bd-cell-main" }, h("span", { class: "bd-cell-text", text: "Loading…" })));
  tr.bdKey = `hole:${line.rowIndex}`;
  tr.style.top = `${line.top}px`;
  return tr;
}

function lineElement(el, line) {
  if (line.hole) return placeholderElement(line);
  if (line.type === "row") return cellElement(el, line);
  const cell = h("div", { role: line.type === "header" ? "columnheader" : "gridcell", class: `bd-section-${line.type}`, text: line.text });
  const tr = h("div", { role: "row", class: `bd-table-${line.type}`, "aria-rowindex": String(line.index + 1) }, cell);
  tr.style.top = `${line.top}px`;
  tr.bdKey = `${line.type}:${line.section}`;
  return tr;
}

/** Renders the lines in view (keyed: rows already shown are reused unless they changed). */
function paint(el, { force = false } = {}) {
  const lines = el.bdLines ?? [];
  lines.forEach((l, i) => { l.index = i; });
  el.setAttribute("aria-rowcount", String(lines.length));
  el.bdCanvas.style.height = `${el.bdHeight}px`;
  el.classList.toggle("bd-table-empty", !el.bdRowLines?.size);
  const viewTop = el.scrollTop;
  const viewHeight = el.clientHeight || MAX_HEIGHT;
  let start = lines.length ? lineAt(lines, viewTop) : 0;
  let end = lines.length ? lineAt(lines, viewTop + viewHeight) + 1 : 0;
  start = Math.max(0, start - OVERSCAN);
  end = Math.min(lines.length, end + OVERSCAN);
  const wanted = lines.slice(start, end);
  // The focused row stays in the DOM even when scrolled away, so focus is never lost.
  const focusLine = el.bdFocusKey && el.bdRowLines?.get(el.bdFocusKey);
  if (focusLine && !wanted.includes(focusLine)) wanted.push(focusLine);
  const old = new Map([...el.bdCanvas.children].map((c) => [c.bdKey, c]));
  const stamp = (l) => JSON.stringify([l.row ?? l.text, l.index, l.rowIndex, el.bdRowCount, el.bdStateStamp]);
  if (wanted.some((l) => l.hole)) {
    clearTimeout(el.bdRequestTimer);
    el.bdRequestTimer = setTimeout(() => requestHoles(el, el.bdWanted ?? []), REQUEST_SETTLE_MS);
  }
  el.bdWanted = wanted;
  const next = wanted.map((l) => {
    const key = l.hole ? `hole:${l.rowIndex}` : l.type === "row" ? l.row.id : `${l.type}:${l.section}`;
    const prev = old.get(key);
    if (prev && !force && prev.bdStamp === stamp(l)) { old.delete(key); prev.style.top = `${l.top}px`; return prev; }
    const fresh = lineElement(el, l);
    fresh.bdStamp = stamp(l);
    if (prev) {
      const hadFocus = prev.contains(document.activeElement);
      prev.replaceWith(fresh);
      old.delete(key);
      if (hadFocus) fresh.focus({ preventScroll: true });
    }
    return fresh;
  });
  // A deleted row that had the keyboard focus hands it to the row after it (else the one
  // before, else the table), as a list does when its focused item goes: not to <body>.
  const orphan = [...old.values()].find((g) => g.contains(document.activeElement));
  const heir = orphan && focusHeir(el, orphan, new Set(next));
  for (const gone of old.values()) gone.remove();
  // Keep DOM order = line order (screen readers read in DOM order).
  let cursor = null;
  for (const node of next) {
    const want = cursor ? cursor.nextSibling : el.bdCanvas.firstChild;
    if (node !== want) el.bdCanvas.insertBefore(node, want);
    cursor = node;
  }
  el.bdEmpty.hidden = Boolean(el.bdRowLines?.size);
  // One tab stop: the focused row, else the first selected, else the first row.
  if (!el.bdFocusKey || !el.bdRowLines.has(el.bdFocusKey)) {
    const first = el.bdWidget?.props.selectedRows?.find((k) => el.bdRowLines.has(k)) ?? el.bdRowLines?.keys().next().value;
    el.bdFocusKey = first;
    el.bdCanvas.querySelectorAll('[role="row"][tabindex="0"]').forEach((r) => r.setAttribute("tabindex", "-1"));
    el.bdCanvas.querySelector(`[data-row="${CSS.escape(first ?? "")}"]`)?.setAttribute("tabindex", "0");
  }
  if (orphan) {
    if (heir) focusRow(el, heir.dataset.row);
    else {
      el.setAttribute("tabindex", el.getAttribute("tabindex") ?? "-1");
      el.focus({ preventScroll: true });
    }
  }
}

/** The row that takes the focus of `orphan` (about to go): the next one kept, else the previous. */
function focusHeir(el, orphan, kept) {
  const rows = [...el.bdCanvas.children];
  const at = rows.indexOf(orphan);
  const isRow = (n) => kept.has(n) && n.dataset.row !== undefined;
  return rows.slice(at + 1).find(isRow) ?? rows.slice(0, at).reverse().find(isRow) ?? null;
}

function refresh(el) {
  if (!el.bdWidget) return;
  layoutLines(el);
  el.bdStateStamp = JSON.stringify([el.bdWidget.props.isEditing, el.bdWidget.props.selectedRows]);
  paint(el);
  // A keyboard move that landed on a row not loaded yet: focus it once it is.
  if (el.bdFocusIndex !== undefined) {
    const line = el.bdLines.find((l) => l.type === "row" && l.rowIndex === el.bdFocusIndex);
    if (!line) el.bdFocusIndex = undefined;
    else if (!line.hole) { el.bdFocusIndex = undefined; focusRow(el, line.row.id); }
  }
}

/** Moves the keyboard focus to the row at flat index `index`, loaded or not (it is asked for). */
function focusRowAt(el, index) {
  const line = el.bdLines.find((l) => l.type === "row" && l.rowIndex === index);
  if (!line) return;
  if (!line.hole) { focusRow(el, line.row.id); return; }
  el.bdFocusIndex = index;
  if (line.top < el.scrollTop) el.scrollTop = line.top;
  else if (line.top + ROW > el.scrollTop + el.clientHeight) el.scrollTop = line.top + ROW - el.clientHeight;
  paint(el);
}

/** Focuses the row `key`, scrolling it into view (rendering it first). */
function focusRow(el, key) {
  const line = el.bdRowLines.get(key);
  if (!line) return;
  el.bdFocusKey = key;
  if (line.top < el.scrollTop) el.scrollTop = line.top - (line.indexInSection === 0 ? HEADER : 0);
  else if (line.top + ROW > el.scrollTop + el.clientHeight) el.scrollTop = line.top + ROW - el.clientHeight;
  paint(el);
  const tr = el.bdCanvas.querySelector(`[data-row="${CSS.escape(key)}"]`);
  el.bdCanvas.querySelectorAll('[role="row"][tabindex="0"]').forEach((r) => r.setAttribute("tabindex", "-1"));
  tr?.setAttribute("tabindex", "0");
  tr?.focus({ preventScroll: true });
}

/** Where a row lands one step up or down: `{ toSection, toIndex }` (PROTOCOL.md counts after removing it). */
function moveTarget(el, key, direction) {
  const line = el.bdRowLines.get(key);
  const order = el.bdSectionOrder;
  const s = order.indexOf(line.section);
  if (direction === "up") {
    if (line.indexInSection > 0) return { toSection: line.section, toIndex: line.indexInSection - 1 };
    for (let i = s - 1; i >= 0; i--) return { toSection: order[i], toIndex: el.bdBySection.get(order[i]).length };
  } else {
    if (line.indexInSection < line.sectionCount - 1) return { toSection: line.section, toIndex: line.indexInSection + 1 };
    for (let i = s + 1; i < order.length; i++) return { toSection: order[i], toIndex: 0 };
  }
  return null;
}

function sendMove(el, key, target) {
  if (!target || target.toSection === undefined) return;
  el.bdSend("itemMoved", undefined, { fields: { row: key, toSection: target.toSection, toIndex: target.toIndex } });
}

export default {
  create() {
    const canvas = h("div", { class: "bd-table-canvas" });
    // An empty table says so in a row of its own (a grid must hold rows; screen readers hear it).
    const empty = h("div", { role: "row", class: "bd-table-empty-note" }, h("div", { role: "gridcell", text: "No rows." }));
    const el = h("div", { class: "bd-table", role: "grid", "aria-rowcount": "0", id: nextId("bd-table") }, canvas);
    el.bdCanvas = canvas;
    el.bdEmpty = empty;
    el.append(empty);
    el.style.maxHeight = `${MAX_HEIGHT}px`;
    let ticking = false;
    el.addEventListener("scroll", () => {
      if (ticking) return;
      ticking = true;
      requestAnimationFrame(() => { ticking = false; paint(el); });
    }, { passive: true });
    return el;
  },
  wire(el, send) {
    el.bdSend = (event, value, opts) => send(event, value, opts);
    const rowOf = (t) => t.closest?.('[role="row"][data-row]');
    const select = (tr) => {
      const p = el.bdWidget?.props ?? {};
      if (isInert(el) || p.allowsSelection === false) return;
      if (p.isEditing && !p.allowsSelectionDuringEditing) return;
      const key = tr.dataset.row;
      const selected = (p.selectedRows ?? []).includes(key);
      tr.classList.add("bd-cell-pressed"); // UIKit's highlight, even when the app deselects at once
      setTimeout(() => tr.classList.remove("bd-cell-pressed"), 250);
      send(selected && p.allowsMultipleSelection ? "itemDeselected" : "itemSelected", undefined, { fields: { row: key } });
    };
    el.addEventListener("click", (e) => {
      const tr = rowOf(e.target);
      if (!tr || isInert(el)) return;
      el.bdFocusKey = tr.dataset.row;
      const button = e.target.closest("button");
      if (button) {
        e.preventDefault();
        if (button.dataset.move) sendMove(el, tr.dataset.row, moveTarget(el, tr.dataset.row, button.dataset.move));
        else if (button.dataset.action) send(button.dataset.action, undefined, { fields: { row: tr.dataset.row } });
        return;
      }
      select(tr);
    });
    el.addEventListener("keydown", (e) => {
      const tr = rowOf(e.target);
      if (!tr) return;
      const key = tr.dataset.row;
      const i = el.bdRowLines.get(key)?.rowIndex ?? 0;
      const count = el.bdRowCount ?? 0;
      if (e.altKey && (e.key === "ArrowUp" || e.key === "ArrowDown")) {
        // The keyboard's reorder (WCAG 2.5.7: dragging has an alternative).
        const line = el.bdRowLines.get(key);
        if (el.bdWidget.props.isEditing && line.row.canMove) {
          e.preventDefault();
          sendMove(el, key, moveTarget(el, key, e.key === "ArrowUp" ? "up" : "down"));
        }
        return;
      }
      const go = { ArrowDown: i + 1, ArrowUp: i - 1, Home: 0, End: count - 1, PageDown: i + 8, PageUp: i - 8 }[e.key];
      if (go !== undefined && e.target === tr) {
        e.preventDefault();
        focusRowAt(el, Math.max(0, Math.min(count - 1, go)));
      } else if ((e.key === "Enter" || e.key === " ") && e.target === tr) {
        e.preventDefault();
        select(tr);
      } else if (e.key === "ArrowRight" && e.target === tr) {
        const b = tr.querySelector("button:not([disabled])");
        if (b) { e.preventDefault(); b.focus(); }
      } else if (e.key === "ArrowLeft" && e.target.tagName === "BUTTON") {
        e.preventDefault();
        tr.focus();
      } else if ((e.key === "Delete" || e.key === "Backspace") && e.target === tr && el.bdWidget.props.isEditing) {
        const del = tr.querySelector('[data-action="itemDeleted"]');
        if (del) { e.preventDefault(); del.click(); }
      }
    });
    el.addEventListener("focusin", (e) => {
      const tr = rowOf(e.target);
      if (tr && e.target === tr) el.bdFocusKey = tr.dataset.row;
    });
    // Reorder by drag (HTML drag and drop; the drop says where, the server moves it).
    el.addEventListener("dragstart", (e) => {
      const tr = rowOf(e.target);
      if (!tr) return;
      el.bdDragKey = tr.dataset.row;
      e.dataTransfer.effectAllowed = "move";
      e.dataTransfer.setData("text/plain", tr.dataset.row);
    });
    el.addEventListener("dragover", (e) => {
      if (!el.bdDragKey || !rowOf(e.target)) return;
      e.preventDefault();
      el.bdCanvas.querySelectorAll(".bd-drop-before, .bd-drop-after").forEach((n) => n.classList.remove("bd-drop-before", "bd-drop-after"));
      const tr = rowOf(e.target);
      const r = tr.getBoundingClientRect();
      tr.classList.add(e.clientY < r.top + r.height / 2 ? "bd-drop-before" : "bd-drop-after");
    });
    el.addEventListener("dragend", () => {
      el.bdDragKey = null;
      el.bdCanvas.querySelectorAll(".bd-drop-before, .bd-drop-after").forEach((n) => n.classList.remove("bd-drop-before", "bd-drop-after"));
    });
    el.addEventListener("drop", (e) => {
      const tr = rowOf(e.target);
      const key = el.bdDragKey;
      el.bdDragKey = null;
      if (!tr || !key || tr.dataset.row === key) return;
      e.preventDefault();
      const r = tr.getBoundingClientRect();
      const after = e.clientY >= r.top + r.height / 2;
      const from = el.bdRowLines.get(key);
      const onto = el.bdRowLines.get(tr.dataset.row);
      let toIndex = onto.indexInSection + (after ? 1 : 0);
      if (from.section === onto.section && from.indexInSection < onto.indexInSection) toIndex -= 1;
      sendMove(el, key, { toSection: onto.section, toIndex });
    });
  },
  props: {
    items(el, _rows, w) { el.bdWidget = w; refresh(el); },
    itemCount(el, _n, w) { el.bdWidget = w; refresh(el); },
    sections(el, _s, w) { el.bdWidget = w; refresh(el); },
    selectedRows(el, _v, w) { el.bdWidget = w; refresh(el); },
    isEditing(el, v, w) { el.bdWidget = w; el.classList.toggle("bd-table-editing", v === true); refresh(el); },
    allowsMultipleSelection(el, v) { if (v) el.setAttribute("aria-multiselectable", "true"); else el.removeAttribute("aria-multiselectable"); },
    style(el, v) { el.dataset.style = v ?? "plain"; },
  },
  // Keyed ops: the client's cache (`items`/`sections`) already has them applied; the
  // table re-lays its lines out and repaints what is in view, reusing unchanged rows.
  ops(el) { refresh(el); return true; },
};
