// client.js — keeps a scene's widgets and their elements in step with the server.
//
// seq/ack: every event carries a rising `seq`; the server answers each with `ack` = that
// seq, in order, so `lastAck` is "everything up to here has been processed". For each
// widget we remember the seq of the last value-carrying event sent from it. While that
// seq is above lastAck (or a debounced edit is waiting to go), the server cannot know
// about the user's latest edit, so any value it sends for that widget's value property
// is stale: it is ignored, and the caret never jumps.
//
// Surviving restarts: edits made while disconnected are kept and re-sent when the
// session resumes; if the server comes back without the session (a restart), the new
// session gets what the user had entered (form recovery) and a notice says so.

import { Connection } from "./connection.js";
import { devMode, setOffline } from "./dom.js";
import { rendererFor, applyDisplayProp, messageHandlerFor } from "./registry.js";
import { applyWidgetProps, applyPatch } from "./patch.js";
import { renderScene } from "./layout.js";
import { bindMarkup } from "./attach.js";
import { unnamedControls } from "./a11y.js";
import { statusElement, showStatus, showBanner, toast, friendlyError } from "./status.js";
import "./renderers/index.js";

/** Events that report where focus is, sent by the browser on its own (PROTOCOL.md, "Focus"). */
const FOCUS_REPORTS = new Set(["editingDidBegin", "editingDidEnd"]);

export const PROTOCOL = 1;
const USER_ASKED_MS = 5000; // rows arriving this soon after a tap were asked for
/** What the user reads when the server rebuilt the session inexactly (`"restored": false`). */
export const NOT_RESTORED_TEXT =
  "This page could not be fully restored after a server restart: it has started afresh, " +
  "so some of what you entered may be missing.";

export class Client {
  constructor({ scene, parameters, history, root, mode, status, base, dev, onScene, onPatch, onError, onStatus }) {
    if (!scene) throw new Error("bindery: no scene name (use /scene/<name>, ?scene= or attach({ scene }))");
    this.scene = scene;
    this.parameters = parameters ?? {}; // the scene's (SceneContext.parameters)
    this.history = history ?? mode === "render"; // pushed screens are history entries; the URL's #/path names them
    this.root = root ?? document;
    this.mode = mode; // "render" or "attach"
    this.dev = dev ?? devMode();
    this.hooks = { onScene, onPatch, onError, onStatus };
    this.widgets = new Map(); // id → { id, kind, props }
    this.elements = new Map(); // id → [{ el, kind, prop }]
    this.seq = 0;
    this.lastAck = 0;
    this.sentSeq = new Map(); // id → seq of the last value-carrying event sent for it
    this.edited = new Set(); // ids whose value the user has set on this page (form recovery)
    this.waiting = new Map(); // id → a debounce/throttle timer holding an unsent edit
    this.lastSendAt = new Map(); // id → time of the last throttled send
    this.lastTapAt = -Infinity;
    this.ownedAcks = new Set(); // seqs whose answer a part of the page shows itself (uploads)
    this.wired = new WeakSet();
    this.state = null;
    this.statusEl = statusElement(status);
    this.conn = new Connection({
      scene,
      base,
      parameters: this.parameters,
      // A new session opens on the screens the URL names (a reload after the session expired).
      screenPath: () => (this.history ? screenPathFromLocation() : ""),
      onMessage: (m) => this.receive(m),
      onStatus: (state, info) => this.setState(state, info),
    });
    this.conn.open();
  }

  // ---- connection state ---------------------------------------------------------------

  setState(state, info = {}) {
    const changed = state !== this.state;
    this.state = state;
    if (changed) document.documentElement.dataset.binderyState = state;
    let action = null;
    if (state === "offline") action = { label: "Retry now", run: () => this.conn.retryNow() };
    if (state === "ended") {
      action = info.takenOver
        ? { label: "Use it here", run: () => this.conn.reclaim() }
        : { label: "Start a new session", run: () => this.conn.restart() };
    }
    if (state === "ended" && info.badParameter) {
      this.showBadParameter(info.detail);
      // No session was started, so none ended: a plain "No session", not the red pill.
      showStatus(this.statusEl, "refused", { detail: info.detail ?? null });
    } else {
      showStatus(this.statusEl, state, { detail: info.detail ?? null, action });
    }
    if (changed) {
      // While not connected, controls whose effect needs the server are inert; text
      // fields stay usable and what is typed is sent when the connection is back.
      const offline = state !== "connected";
      // Disabling the focused control drops focus to the page: give it back afterwards.
      const focused = document.activeElement;
      if (offline && focused && focused !== document.body) this.focusBeforeOffline = focused;
      for (const bindings of this.elements.values()) {
        for (const b of bindings) {
          const r = rendererFor(b.kind);
          if (!b.prop && r.control && !r.typing) setOffline(b.el, offline);
        }
      }
      this.root.toggleAttribute?.("data-bindery-inert", offline);
      if (!offline && this.focusBeforeOffline) {
        const el = this.focusBeforeOffline;
        this.focusBeforeOffline = null;
        if (el.isConnected && (document.activeElement === document.body || !document.activeElement)) el.focus();
      }
      if (state !== "connected" && !this.conn.everConnected && this.mode === "render" && this.conn.failures === 1) {
        this.checkSceneExists();
      }
    }
    this.hooks.onStatus?.(state, info);
  }

  // ---- events out ---------------------------------------------------------------------

  /** Sends a control event for widget `target`. Returns the seq, or 0 if not sent. */
  send(target, event, value, fields) {
    const seq = ++this.seq;
    const message = { type: "event", seq, target, event };
    if (value !== undefined) message.value = value;
    // Row and alert events name their row / action in extra fields (PROTOCOL.md).
    if (fields) for (const [k, v] of Object.entries(fields)) if (v !== undefined) message[k] = v;
    if (value !== undefined) this.edited.add(target);
    if (event === "touchUpInside" || event === "primaryActionTriggered") this.lastTapAt = performance.now();
    if (!this.conn.send(message)) {
      // Not connected: remember the edit as unsent; it is re-sent when the session resumes.
      // Focus reports are not the user's actions: nothing to try again, so no alarm.
      if (value !== undefined) this.sentSeq.set(target, Infinity);
      else if (!FOCUS_REPORTS.has(event)) toast(null, "Not connected: that was not sent. Try again when the connection is back.");
      return 0;
    }
    if (value !== undefined) this.sentSeq.set(target, seq);
    return seq;
  }

  /** True while the user has an edit of `target` that the server has not processed yet. */
  hasUnackedEdit(target) {
    return (this.sentSeq.get(target) ?? 0) > this.lastAck || this.waiting.has(target);
  }

  /** A control's report, through its data-debounce / data-throttle attributes if any. */
  emit(el, target, event, value, { rate, fields } = {}) {
    if (value !== undefined) this.mirror(el, target, value);
    const debounce = Number(el.dataset.debounce);
    const throttle = Number(el.dataset.throttle);
    const flush = () => { this.waiting.delete(target); this.send(target, event, el.bdLatest ?? value); };
    if (!rate) {
      // A discrete event (focus, blur, Return, tap) first sends any edit still waiting,
      // so the server sees the events in the order the user made them.
      this.flushWaiting(target);
      this.send(target, event, value, fields);
      return;
    }
    el.bdLatest = value;
    if (debounce > 0) {
      clearTimeout(this.waiting.get(target)?.timer);
      this.waiting.set(target, { timer: setTimeout(flush, debounce), flush });
    } else if (throttle > 0) {
      const since = performance.now() - (this.lastSendAt.get(target) ?? -Infinity);
      if (this.waiting.has(target)) return; // a trailing send is scheduled: it takes the latest value
      const go = () => { this.lastSendAt.set(target, performance.now()); flush(); };
      if (since >= throttle) go();
      else this.waiting.set(target, { timer: setTimeout(go, throttle - since), flush: go });
    } else {
      this.send(target, event, value);
    }
  }

  /**
   * Shows a local edit everywhere else the widget is bound (an <output data-prop>, the
   * slider's readout): the server does not send the sender its own value back.
   */
  mirror(source, target, value) {
    const w = this.widgets.get(target);
    const prop = w && rendererFor(w.kind).valueProp;
    if (!prop) return;
    w.props[prop] = value;
    for (const b of this.elements.get(target) ?? []) {
      if (b.el === source) {
        if (source.bdReadout && prop === "value") source.bdReadout.textContent = Number(value).toFixed(2);
      } else if (b.prop) {
        if (b.prop === prop) applyDisplayProp(b.el, prop, value);
      } else {
        rendererFor(b.kind).props[prop]?.(b.el, value, w);
      }
    }
  }

  flushWaiting(target) {
    const w = this.waiting.get(target);
    if (!w) return;
    clearTimeout(w.timer);
    w.flush();
  }

  /** Asks for rows `from..<to` of the windowed table `target` (answered by a `rows` message). */
  requestRows(target, from, to) {
    return this.conn.send({ type: "rows", seq: ++this.seq, target, from, to });
  }

  // ---- messages in --------------------------------------------------------------------

  receive(msg) {
    // store-unavailable: the event was not acknowledged; the edit stays unacked and is
    // sent again with the next scene (the session is rebuilt once the store is back).
    const unacked = msg.type === "error" && msg.code === "store-unavailable";
    if (!unacked && typeof msg.ack === "number" && msg.ack > this.lastAck) this.lastAck = msg.ack;
    switch (msg.type) {
      case "scene": return this.onScene(msg);
      case "patch":
        applyPatch(this, msg, { userAsked: performance.now() - this.lastTapAt < USER_ASKED_MS });
        this.hooks.onPatch?.(msg);
        return;
      case "bye": return;
      case "error":
        // An error answering a request someone on the page waits for (an upload's step)
        // is shown there, once: no toast as well.
        if (this.ownedAcks.has(msg.ack)) this.ownedAcks.delete(msg.ack);
        else if (this.dev) toast(msg.code ?? "error", msg.message);
        else toast(null, friendlyError(msg));
        this.hooks.onError?.(msg);
        return;
      default: {
        const handler = messageHandlerFor(msg.type);
        if (handler) handler(this, msg);
        else console.debug("bindery: ignoring message", msg);
      }
    }
  }

  /** Asks the server for a full snapshot (a `scene` message carrying `ack`). */
  resync() {
    if (this.resyncing) return;
    this.resyncing = true;
    this.conn.send({ type: "resync", seq: ++this.seq });
  }

  onScene(msg) {
    // A scene with an ack answers our resync on a live connection; one without is a
    // new connection's first message.
    const isResync = typeof msg.ack === "number";
    this.resyncing = false;
    if (msg.protocol !== undefined && msg.protocol !== PROTOCOL) {
      toast(null, `The server speaks protocol ${msg.protocol}; this page speaks ${PROTOCOL}. Reload the page.`);
    }
    const previous = this.widgets;
    const fresh = !isResync && msg.resumed === false && previous.size > 0;
    // What to send again once the snapshot is on the page (widget id → value):
    // after a resume, edits never answered; in a fresh session (the old one is gone,
    // e.g. the server restarted), everything the user had entered (form recovery).
    const resend = new Map();
    if (!isResync) {
      for (const [id, w] of previous) {
        const prop = rendererFor(w.kind).valueProp;
        if (!prop) continue;
        const unsent = (this.sentSeq.get(id) ?? 0) > this.lastAck || this.waiting.has(id);
        const incoming = msg.widgets.find((x) => x.id === id && x.kind === w.kind);
        if (!incoming) continue;
        if (unsent || (fresh && this.edited.has(id) && !same(incoming.props?.[prop], w.props[prop]))) {
          resend.set(id, w.props[prop]);
        }
      }
      this.lastAck = this.seq;
      this.sentSeq.clear();
    }

    const sameShape = previous.size === msg.widgets.length &&
      msg.widgets.every((w) => previous.get(w.id)?.kind === w.kind);
    this.widgets = new Map(msg.widgets.map((w) => [w.id, { ...w, props: { ...w.props } }]));
    const rendered = this.mode === "render" && !sameShape;
    if (rendered) this.renderTree(msg);
    if (this.mode === "attach") bindMarkup(this);

    for (const w of msg.widgets) {
      const prop = rendererFor(w.kind).valueProp;
      const keep = prop && (resend.has(w.id) || this.hasUnackedEdit(w.id)) ? prop : null;
      if (keep) this.widgets.get(w.id).props[keep] = previous.get(w.id)?.props[keep];
      applyWidgetProps(this, w, keep);
    }
    // With the titles and labels in place: what would a screen reader call each control?
    if (rendered && this.dev) this.warnUnnamedControls();
    // Send what the user entered that the server does not have.
    for (const [id, value] of resend) {
      const w = this.widgets.get(id);
      if (!w || value === undefined) continue;
      w.props[rendererFor(w.kind).valueProp] = value;
      this.send(id, rendererFor(w.kind).valueEvent, value);
    }
    // The session was taken over after a restart but its saved state could not be read
    // back (PROTOCOL.md: "restored": false): say so plainly, once per session on this page.
    if (msg.restored === false && this.notRestoredSession !== msg.session) {
      this.notRestoredSession = msg.session;
      showBanner("not-restored", NOT_RESTORED_TEXT, { role: "alert" });
    }
    if (fresh) {
      toast(null, resend.size
        ? "The connection was lost and a new session started. What you entered has been restored."
        : "The connection was lost and a new session started.");
    }
    this.hooks.onScene?.(msg);
  }

  // ---- elements -----------------------------------------------------------------------

  /** Wires an element as a front end for widget `id` (once per element). */
  bindElement(el, id, kind, prop) {
    const list = this.elements.get(id) ?? [];
    if (!list.some((b) => b.el === el)) list.push({ el, kind, prop });
    this.elements.set(id, list);
    if (this.wired.has(el)) return;
    this.wired.add(el);
    el.dataset.widget = id;
    el.dataset.kind = kind;
    if (prop) {
      // A display element may still report one event, e.g. a clickable card: data-event.
      if (el.dataset.event) el.addEventListener("click", () => this.emit(el, id, el.dataset.event));
      return;
    }
    const r = rendererFor(kind);
    el.bdClient = this; // for renderers that ask for more than events (a table's rows)
    el.bdHistory = this.history; // the navigation renderer's history is opt-in in attach mode
    el.bdAttached = this.mode === "attach" && el.hasAttribute("data-bind");
    r.hydrate?.(el, this.widgets.get(id));
    r.wire?.(el, (event, value, opts) => this.emit(el, id, event, value, opts), this);
    if (r.control && !r.typing && this.state !== "connected") setOffline(el, true);
  }

  /** Render mode: the scene's fields, arranged by its layout. */
  renderTree(msg) {
    this.elements.clear();
    const form = renderScene(msg, { bind: (el, id, kind) => this.bindElement(el, id, kind), dev: this.dev });
    this.root.replaceChildren(form);
    this.root.setAttribute("aria-busy", "false");
  }

  /** Developer mode: a control a screen reader could only call "button" is a mistake to see. */
  warnUnnamedControls() {
    const unnamed = unnamedControls(this.root);
    for (const { widget, kind } of unnamed) {
      console.warn(`bindery: ${kind} '${widget ?? "?"}' has no accessible name: give it a title, an accessibilityLabel or a caption in the scene's layout`);
    }
    if (unnamed.length) {
      const ids = unnamed.map((u) => `'${u.widget ?? "?"}'`).join(", ");
      toast("no-accessible-name", `${unnamed.length === 1 ? "A control has" : `${unnamed.length} controls have`} no accessible name: ${ids}.`);
    }
  }

  /** The page's address has parameters the scene refuses: say so instead of a scene. */
  showBadParameter(message) {
    const p = document.createElement("p");
    p.className = "bd-notice";
    p.setAttribute("role", "alert");
    p.dataset.binderyError = "bad-parameter";
    p.append(`This page cannot open with that address: ${message}. `);
    const a = document.createElement("a");
    a.href = window.location.pathname;
    a.textContent = "Open it without parameters.";
    p.append(a);
    if (this.mode === "render") {
      this.root.replaceChildren(p);
      this.root.setAttribute("aria-busy", "false");
    } else {
      toast(null, p.textContent);
    }
    this.hooks.onError?.({ type: "error", code: "bad-parameter", message });
  }

  async checkSceneExists() {
    try {
      const res = await fetch(new URL("/api/scenes", window.location.href));
      if (!res.ok) return;
      const names = sceneNames(await res.json());
      if (!names.includes(this.scene)) {
        this.conn.close();
        showStatus(this.statusEl, "ended", { detail: "No such page" });
        const p = document.createElement("p");
        p.className = "bd-notice";
        p.append(`There is no page named “${this.scene}”. `);
        const a = document.createElement("a");
        a.href = "/";
        a.textContent = "See all pages.";
        p.append(a);
        this.root.replaceChildren(p);
      }
    } catch { /* the server is down; the status shows it */ }
  }

  /** Ends the session on the server (`bye`) and forgets its token. */
  end() {
    this.conn.send({ type: "bye" });
    this.conn.token = null;
    this.conn.close();
  }
}

/** The screen path the page's URL names: `#/chen-wei` → "/chen-wei" ("" for none). */
export function screenPathFromLocation(loc = window.location) {
  return loc.hash.startsWith("#/") ? loc.hash.slice(1) : "";
}

const same = (a, b) => a === b || (a == null && b === "") || (a === "" && b == null);

/** Scene names from GET /api/scenes, whichever shape it has. */
export function sceneNames(body) {
  const list = Array.isArray(body) ? body : body?.scenes ?? [];
  return list.map((s) => (typeof s === "string" ? s : s.name));
}
