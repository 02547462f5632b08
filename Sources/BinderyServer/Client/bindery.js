// bindery.js — the browser client for a Bindery server (wire protocol v1).
//
// Widget models live on the server. The client renders them, reports DOM events as
// UIKit control events, and applies the patches that come back. Two ways to use it:
//
//   render({ root })            auto-renders the scene named by the page's path
//                               (/scene/<name>) into `root` (what scene.html does);
//   attach({ scene: "colors" }) binds the page's own markup: every element with
//                               data-bind="<widget id>" becomes a front end for that widget.
//
// No framework, no build step: ES modules served as static files (docs/Client.md):
//   bindery/connection.js  the WebSocket: resume by token, backoff, pagehide/bfcache
//   bindery/client.js      seq/ack, events out, messages in, form recovery
//   bindery/patch.js       applies snapshot and patch values to elements
//   bindery/registry.js    the widget-renderer registry (one renderer per kind)
//   bindery/renderers/     one module per widget kind
//   bindery/layout.js      auto-render: fields, captions, rows, columns, grids, groups
//   bindery/attach.js      attach mode: the page's [data-bind] markup
//   bindery/status.js      the connection pill, notices, the screen-reader announcer
//   bindery/a11y.js        accessible names (developer mode warns of unnamed controls)
//   bindery/tree.js        the view tree: subviews placed in their superviews, in order

import { Client, sceneNames, PROTOCOL, screenPathFromLocation } from "./bindery/client.js";
import { cssColor, devMode } from "./bindery/dom.js";
import { registerRenderer, rendererFor, registeredKinds, registerMessageHandler } from "./bindery/registry.js";
import { toast, announce } from "./bindery/status.js";

/** The scene a page is for: ?scene=, <body data-scene>, or the last part of /scene/<name>. */
export function sceneFromLocation(loc = window.location) {
  const query = new URLSearchParams(loc.search).get("scene");
  if (query) return query;
  if (document.body?.dataset.scene) return document.body.dataset.scene;
  const m = /\/scene\/([^/]+)\/?$/.exec(loc.pathname);
  return m ? decodeURIComponent(m[1]) : null;
}

// Query names that are the page's own, not the scene's parameters (SceneContext.reservedParameterNames).
const RESERVED = new Set(["scene", "dev", "session", "screen", "rows"]);

/** The scene's parameters from the page's query: `/scene/repo?id=42` → `{ id: "42" }` (first value wins). */
export function parametersFromLocation(loc = window.location) {
  const out = {};
  for (const [k, v] of new URLSearchParams(loc.search)) if (k && !RESERVED.has(k) && !(k in out)) out[k] = v;
  return out;
}

/**
 * Auto-renders a scene into `root`.
 * Options: scene (default: from the URL), parameters (the scene's; default: the page's
 * query, see parametersFromLocation), root (default: [data-bindery-root] or <main>),
 * status (an element, or false for none), dev (developer mode; default from ?dev=1),
 * history (default true: pushed screens are browser history entries and the URL's
 * #/<screen path> names them), onScene/onPatch/onError/onStatus hooks.
 */
export function render(options = {}) {
  const root = options.root ?? document.querySelector("[data-bindery-root]") ?? document.querySelector("main") ?? document.body;
  return new Client({
    history: true, ...options, scene: options.scene ?? sceneFromLocation(),
    parameters: options.parameters ?? parametersFromLocation(), root, mode: "render",
  });
}

/**
 * Attaches to the page's own markup: elements with data-bind="<widget id>" (optional
 * data-prop="<property>" for display-only elements, data-event="<event …>" to choose
 * what an element reports, data-debounce / data-throttle="<ms>" on inputs).
 * Alerts and pushed screens have no markup of their own: they are rendered inside
 * `root` (a navigation controller's screens inside its data-bind element).
 * Options as render's, but `parameters` default to none and `history` to false (the
 * host page owns its URL; pass true to let pushed screens add history entries).
 */
export function attach(options = {}) {
  return new Client({
    history: false, parameters: {}, ...options, scene: options.scene ?? sceneFromLocation(),
    root: options.root ?? document, mode: "attach",
  });
}

export {
  screenPathFromLocation, cssColor, devMode, sceneNames, toast, announce, registerRenderer, rendererFor, registeredKinds,
  registerMessageHandler, PROTOCOL,
};
