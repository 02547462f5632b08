// a11y.js — what a screen reader would call a control, so developer mode can say when a
// control has no name at all (a button without a title, a switch without a caption).

const CONTROLS = "button, input:not([type=\"hidden\"]), select, textarea, [role=\"switch\"], [role=\"slider\"], [role=\"checkbox\"], [role=\"button\"]";

const text = (el) => (el?.textContent ?? "").trim();

/** `el`'s accessible name, in the order the accname rules look (a short form of them). */
export function accessibleName(el) {
  const doc = el.ownerDocument ?? document;
  const labelledBy = el.getAttribute("aria-labelledby");
  if (labelledBy) {
    const name = labelledBy.split(/\s+/).map((id) => text(doc.getElementById(id))).join(" ").trim();
    if (name) return name;
  }
  const label = (el.getAttribute("aria-label") ?? "").trim();
  if (label) return label;
  if (el.id) {
    const forLabel = [...doc.querySelectorAll("label")].find((l) => l.getAttribute("for") === el.id);
    if (text(forLabel)) return text(forLabel);
  }
  if (text(el.closest?.("label"))) return text(el.closest("label"));
  const tag = el.tagName.toLowerCase();
  if (tag === "button" || el.getAttribute("role") === "button") { if (text(el)) return text(el); }
  if (tag === "input" && ["button", "submit", "reset"].includes(el.getAttribute("type"))) {
    if ((el.value ?? "").trim()) return el.value.trim();
  }
  const title = (el.title || el.getAttribute("title") || "").trim();
  if (title) return title;
  return (el.placeholder || el.getAttribute("placeholder") || "").trim();
}

/** The controls under `root` that have no accessible name, as `{ el, widget, kind }`. */
export function unnamedControls(root) {
  const found = [];
  for (const el of root.querySelectorAll(CONTROLS)) {
    if (el.closest('[aria-hidden="true"]') || el.closest("[hidden]")) continue;
    if (accessibleName(el)) continue;
    const owner = el.closest("[data-widget]");
    found.push({ el, widget: owner?.dataset.widget ?? null, kind: owner?.dataset.kind ?? el.tagName.toLowerCase() });
  }
  return found;
}
