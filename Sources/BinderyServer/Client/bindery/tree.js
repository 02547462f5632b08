// tree.js — the view tree (PROTOCOL.md, "The view tree"): a widget with `subviews` holds
// its subviews' fields, in order; a stack view lays out its arranged subviews first, in
// its `arrangement` order, then the others (UIKit keeps those as plain subviews). Fields
// are moved, never re-rendered, so focus and what the user typed stay.

/** The ids of a list property's rows (`subviews`, `arrangement`). */
const rowIds = (rows) => (Array.isArray(rows) ? rows.map((r) => r?.id).filter((id) => typeof id === "string") : []);

/** The order `w`'s subviews are shown in. */
function subviewOrder(w) {
  const ids = rowIds(w.props?.subviews);
  const present = new Set(ids);
  const arranged = new Set(rowIds(w.props?.arrangement).filter((id) => present.has(id)));
  return [...arranged, ...ids.filter((id) => !arranged.has(id))];
}

/** The rendered field of widget `id` (its wrapper), if it has one. */
function fieldOf(client, id) {
  for (const b of client.elements.get(id) ?? []) {
    if (!b.prop) return b.el.closest("[data-bindery-field]") ?? b.el;
  }
  return null;
}

/**
 * Puts the fields of `w`'s subviews into `el`, in order. Auto-render mode only: in attach
 * mode the page's own markup is the layout.
 */
export function placeSubviews(el, w) {
  const client = el.bdClient;
  if (!client || client.mode !== "render") return;
  if (el.classList.contains("bd-view")) {
    // A box with subviews is a container, not a picture of its colour.
    el.classList.add("bd-container");
    if (!el.bdCaption) el.removeAttribute("aria-hidden");
    if (el.getAttribute("role") === "img") el.setAttribute("role", "group");
  }
  const spacingAfter = new Map((Array.isArray(w.props?.arrangement) ? w.props.arrangement : [])
    .filter((r) => r && typeof r.id === "string").map((r) => [r.id, r.spacingAfter]));
  const horizontal = w.props?.axis === "horizontal";
  let previous = null;
  for (const id of subviewOrder(w)) {
    const field = fieldOf(client, id);
    if (!field || field.contains(el)) continue; // unknown, or an ancestor: never a cycle
    const next = previous ? previous.nextSibling : el.firstChild;
    if (field !== next) el.insertBefore(field, next);
    previous = field;
    // `setCustomSpacing(_:after:)`: the gap after this view replaces the stack's spacing.
    const gap = spacingAfter.get(id);
    field.style.marginRight = "";
    field.style.marginBottom = "";
    if (gap !== undefined) {
      const px = gap === "system" ? 8 : Number(gap);
      const extra = `calc(${px}px - var(--bd-gap, 0px))`;
      if (horizontal) field.style.marginRight = extra; else field.style.marginBottom = extra;
    }
  }
}
