// patch.js — the patch applier: puts a `scene` snapshot's and a `patch`'s property
// values onto the widgets' elements, honouring the seq/ack rule (a value the user is
// still editing is not overwritten by an older server value).

import { rendererFor, commonProps, applyDisplayProp } from "./registry.js";
import { applyAddedRemoved } from "./presentation.js";

// The view tree's lists: applied whole (tree.js moves the fields), whatever the kind.
const STRUCTURE = new Set(["subviews", "arrangement"]);

// Ranges and segment titles first, so a value is not clamped to a default range.
const FIRST = ["stepValue", "maximumDate", "minimumDate", "maximumValue", "minimumValue", "segments"]; // last = first applied
const byApplyOrder = ([a], [b]) => FIRST.indexOf(b) - FIRST.indexOf(a);

/** Applies one property of widget `id` to every element bound to it. */
export function applyProp(client, id, prop, value) {
  const w = client.widgets.get(id);
  if (!w) return;
  w.props[prop] = value;
  for (const b of client.elements.get(id) ?? []) {
    if (b.prop) { if (b.prop === prop) applyDisplayProp(b.el, prop, value); continue; }
    const apply = rendererFor(b.kind).props[prop] ?? commonProps[prop];
    apply?.(b.el, value, w);
  }
}

/** Applies every property of a snapshot's widget, except `keep` (a value the user is editing). */
export function applyWidgetProps(client, w, keep) {
  for (const [prop, value] of Object.entries(w.props ?? {}).sort(byApplyOrder)) {
    if (prop !== keep) applyProp(client, w.id, prop, value);
  }
}

/**
 * Applies a `patch` message. `userAsked`: it answers (or closely follows) the user's own
 * action, so list renderers may announce and show new rows.
 */
export function applyPatch(client, msg, { userAsked = false } = {}) {
  // Widgets a presentation or a push added, or a dismissal or a pop removed (issue 12).
  if (msg.added?.length || msg.removed?.length) applyAddedRemoved(client, msg);
  for (const c of msg.changes ?? []) {
    const w = client.widgets.get(c.target);
    if (!w) continue;
    if (c.prop === rendererFor(w.kind).valueProp && client.hasUnackedEdit(c.target)) continue; // stale
    if (c.ops) {
      const rows = (w.props[c.prop] ??= []);
      for (const op of c.ops) applyOpToArray(rows, op);
      if (STRUCTURE.has(c.prop)) { applyProp(client, c.target, c.prop, rows); continue; }
      for (const b of client.elements.get(c.target) ?? []) {
        const ops = rendererFor(b.kind).ops;
        if (!b.prop && ops && !ops(b.el, c.ops, { userAsked })) client.resync();
      }
    } else {
      applyProp(client, c.target, c.prop, c.value);
    }
  }
}

/** Keeps a widget's cached rows in step with list ops (for re-renders and recovery). */
export function applyOpToArray(rows, op) {
  switch (op.op) {
    case "insert": rows.splice(op.index, 0, ...op.rows); break;
    case "remove": rows.splice(op.index, op.count ?? 1); break;
    case "update": rows[op.index] = op.row; break;
    case "move": rows.splice(op.to, 0, ...rows.splice(op.from, 1)); break;
  }
}
