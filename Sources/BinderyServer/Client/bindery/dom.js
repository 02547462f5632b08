// dom.js — small DOM helpers shared by every module of the client.

/** Creates an element with attributes and children (`text` sets textContent, `class` className). */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") el.className = v;
    else if (k === "text") el.textContent = v;
    else el.setAttribute(k, v === true ? "" : v);
  }
  el.append(...children);
  return el;
}

/** `#rrggbbaa` (the wire's colour form) → a CSS colour; null → "" (the stylesheet's). */
export function cssColor(value) {
  if (typeof value !== "string") return "";
  const m = /^#([0-9a-f]{6})([0-9a-f]{2})?$/i.exec(value);
  if (!m) return value;
  const a = m[2] === undefined ? 1 : parseInt(m[2], 16) / 255;
  const n = parseInt(m[1], 16);
  return `rgb(${n >> 16} ${(n >> 8) & 255} ${n & 255} / ${+a.toFixed(3)})`;
}

/** ISO 8601 → the local "YYYY-MM-DDTHH:MM" that <input type=datetime-local> wants. */
export function toLocalInput(iso) {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return "";
  const p = (n) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`;
}

/** Whether an element reports `event` (data-event="a b" narrows what it reports). */
export const wants = (el, event) => !el.dataset.event || el.dataset.event.split(/\s+/).includes(event);

/**
 * Enabled state has two sources: the server's `isEnabled` and the connection (controls
 * are inert while offline, except text fields, which keep what the user types). An
 * element is disabled when either says so.
 */
export function setEnabled(el, enabled) {
  el.bdServerDisabled = enabled === false;
  refreshDisabled(el);
}

/** Marks a control inert (or not) because the connection is down. */
export function setOffline(el, offline) {
  el.bdOffline = offline;
  refreshDisabled(el);
}

function refreshDisabled(el) {
  const off = Boolean(el.bdServerDisabled || el.bdOffline);
  el.toggleAttribute("aria-disabled", off);
  if (el.tagName === "A" || el.tagName === "DIV" || el.tagName === "UL") {
    // Not form controls: aria-disabled alone (the click handlers check it).
  } else if ("disabled" in el) {
    el.disabled = off;
  }
  el.querySelectorAll("button, input, select").forEach((c) => { c.disabled = off; });
}

/** True when the element (or its control) is disabled by the server or the connection. */
export const isInert = (el) => el.getAttribute("aria-disabled") !== null;

/** Sets an input's value without moving the caret when it does not change. */
export function setInputValue(el, text) {
  text = text ?? "";
  if (el.value === text) return;
  if (document.activeElement === el && typeof el.selectionStart === "number") {
    // Keep the caret where it was, counted from the end (edits usually happen before it).
    const fromEnd = el.value.length - el.selectionEnd;
    el.value = text;
    const pos = Math.max(0, text.length - fromEnd);
    try { el.setSelectionRange(pos, pos); } catch { /* not a text input */ }
  } else {
    el.value = text;
  }
}

/** Whether the page asked for developer mode: ?dev=1, <html data-bindery-dev>, or localStorage "bindery:dev". */
export function devMode(loc = window.location) {
  const q = new URLSearchParams(loc.search).get("dev");
  if (q !== null) return q !== "0" && q !== "false";
  if (document.documentElement.hasAttribute("data-bindery-dev")) return true;
  try { return localStorage.getItem("bindery:dev") === "1"; } catch { return false; }
}

let uid = 0;
/** A page-unique element id with a readable prefix. */
export const nextId = (prefix) => `${prefix}-${++uid}`;
