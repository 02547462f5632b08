// status.js — the connection pill, notices (passing toasts, banners that stay until
// dismissed) and the screen-reader announcer.

import { h } from "./dom.js";

const STATUS_TEXT = {
  connecting: "Connecting…",
  connected: "Connected",
  reconnecting: "Reconnecting…",
  offline: "Offline",
  ended: "Session ended",
  refused: "No session",
};

/** The element that shows the connection state: `option`, [data-bindery-status], or a floating pill. */
export function statusElement(option) {
  if (option === false) return null;
  if (option instanceof Element) return option;
  const existing = document.querySelector("[data-bindery-status]");
  if (existing) return existing;
  const el = h("div", { class: "bd-status bd-status-floating", "data-bindery-status": true });
  document.body.append(el);
  return el;
}

/**
 * Shows `state` in the pill. `action` is an optional { label, run } button (Retry now,
 * Start a new session); `detail` a longer explanation (title and screen-reader text).
 */
export function showStatus(el, state, { detail = null, action = null } = {}) {
  if (!el) return;
  el.classList.add("bd-status");
  el.dataset.state = state;
  el.setAttribute("role", "status");
  el.title = detail ?? "";
  el.replaceChildren(h("span", { class: "bd-dot", "aria-hidden": "true" }), h("span", { text: STATUS_TEXT[state] ?? state }));
  if (detail) el.append(h("span", { class: "bd-visually-hidden", text: `: ${detail}` }));
  if (action) {
    const b = h("button", { type: "button", class: "bd-link", text: action.label });
    b.addEventListener("click", action.run);
    el.append(b);
  }
}

let toastBox = null;
/**
 * Shows a short notice for a few seconds (polite live region). `code` (a stable error
 * code) is shown only when given, i.e. in developer mode.
 */
export function toast(code, message, { timeout = 6000 } = {}) {
  if (!toastBox?.isConnected) {
    toastBox = h("div", { class: "bd-toasts", role: "status", "aria-live": "polite" });
    document.body.append(toastBox);
  }
  while (toastBox.children.length >= 3) toastBox.firstElementChild.remove();
  const t = h("div", { class: "bd-toast" });
  if (code) t.append(h("code", { text: code }));
  t.append(h("span", { text: message ?? "" }));
  toastBox.append(t);
  setTimeout(() => t.remove(), timeout);
  return t;
}

let bannerBox = null;
/**
 * Shows a notice that stays until the user dismisses it (or `hideBanner(key)`): for what
 * the user must know about the page itself, not a passing event. One per `key`: showing
 * it again while it is up changes nothing. `role` "alert" announces it at once (use it
 * when the user may have lost something), "status" politely. The box sits under the page's
 * header (the one holding [data-bindery-status]) or at the top of the page.
 */
export function showBanner(key, message, { role = "status" } = {}) {
  if (!bannerBox?.isConnected) {
    bannerBox = h("div", { class: "bd-banners", "data-bindery-banners": true });
    let anchor = document.querySelector("[data-bindery-status]:not(.bd-status-floating)");
    while (anchor && anchor.parentElement !== document.body) anchor = anchor.parentElement;
    if (anchor) anchor.after(bannerBox);
    else document.body.prepend(bannerBox);
  }
  const existing = [...bannerBox.children].find((b) => b.dataset.banner === key);
  if (existing) return existing;
  const text = h("p", { class: "bd-banner-text", text: message });
  const close = h("button", { type: "button", class: "bd-banner-close", "aria-label": "Dismiss this notice" },
    h("span", { "aria-hidden": "true", text: "×" }));
  const banner = h("div", { class: "bd-banner", role, "data-banner": key }, text, close);
  close.addEventListener("click", () => banner.remove());
  bannerBox.append(banner);
  return banner;
}

/** Removes the notice `key` shown by showBanner, if it is up. */
export function hideBanner(key) {
  bannerBox?.querySelector(`[data-banner="${CSS.escape(key)}"]`)?.remove();
}

let announcer = null;
/** Says `text` to screen readers (a visually hidden polite live region). */
export function announce(text) {
  if (!announcer) {
    announcer = h("div", { class: "bd-visually-hidden", "aria-live": "polite", "data-bindery-announcer": true });
    document.body.append(announcer);
  }
  // Cleared first so the same text twice is still announced.
  announcer.textContent = "";
  setTimeout(() => { announcer.textContent = text; }, 50);
}

/** What a visitor reads for a server error outside developer mode (codes are for developers). */
export function friendlyError(msg) {
  switch (msg.code) {
    case "disabled": return "That control is not available right now.";
    case "upload-too-large": return "That file is too large.";
    case "upload-aborted": return "The upload stopped. Try again.";
    case "rate-limited": return "Too many actions at once: slow down a little.";
    case "binding-failed": return "The app could not handle that. Try again.";
    case "bad-value": return "That value was not accepted.";
    case "store-unavailable": return "Your change could not be saved yet; it will be sent again.";
    default: return "Something went wrong. Try again.";
  }
}
