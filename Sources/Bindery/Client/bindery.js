// bindery.js — the thin browser front end for a Bindery server (wire protocol v1).
//
// Widget models live on the server. This script only renders them, reports DOM events
// as UIKit control events, and applies the patches that come back. Two ways to use it:
//
//   render({ root })           auto-renders the scene named by the page's path
//                              (/scene/<name>) into `root` (what scene.html does);
//   attach({ scene: "colors" }) binds the page's own markup: every element with
//                              data-bind="<widget id>" becomes a front end for that widget.
//
// No framework, no build step: an ES module the server serves as a static file.

const PROTOCOL = 1;

// ---------------------------------------------------------------------------------------
// Small helpers

/** Creates an element with attributes and children. */
function h(tag, attrs = {}, ...children) {
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
function cssColor(value) {
  if (typeof value !== "string") return "";
  const m = /^#([0-9a-f]{6})([0-9a-f]{2})?$/i.exec(value);
  if (!m) return value;
  const a = m[2] === undefined ? 1 : parseInt(m[2], 16) / 255;
  const n = parseInt(m[1], 16);
  return `rgb(${n >> 16} ${(n >> 8) & 255} ${n & 255} / ${+a.toFixed(3)})`;
}

/** ISO 8601 → the local "YYYY-MM-DDTHH:MM" that <input type=datetime-local> wants. */
function toLocalInput(iso) {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return "";
  const p = (n) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`;
}

/** The scene a page is for: ?scene=, <body data-scene>, or the last part of /scene/<name>. */
export function sceneFromLocation(loc = window.location) {
  const query = new URLSearchParams(loc.search).get("scene");
  if (query) return query;
  if (document.body?.dataset.scene) return document.body.dataset.scene;
  const m = /\/scene\/([^/]+)\/?$/.exec(loc.pathname);
  return m ? decodeURIComponent(m[1]) : null;
}

// ---------------------------------------------------------------------------------------
// Connection: one WebSocket at a time, reconnecting with exponential backoff and
// resuming the session by its token (kept in sessionStorage, so a reload resumes too).

const BACKOFF_FIRST_MS = 250;
const BACKOFF_MAX_MS = 10_000;
const OFFLINE_AFTER_FAILURES = 5; // then say "offline" (but keep trying, more slowly)

class Connection {
  constructor({ scene, base, onMessage, onStatus }) {
    this.scene = scene;
    this.base = base ?? window.location.href;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.storageKey = `bindery:session:${scene}`;
    this.failures = 0;
    this.ws = null;
    this.timer = null;
    this.stopped = false;
    this.everConnected = false;
    // Retry at once when the browser says the network is back, or the tab comes back.
    window.addEventListener("online", () => this.retryNow());
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible") this.retryNow();
    });
  }

  get token() {
    try { return sessionStorage.getItem(this.storageKey); } catch { return null; }
  }

  set token(value) {
    try {
      if (value) sessionStorage.setItem(this.storageKey, value);
      else sessionStorage.removeItem(this.storageKey);
    } catch { /* storage disabled: sessions still work, they just do not survive a reload */ }
  }

  url() {
    const u = new URL(`/ws/${encodeURIComponent(this.scene)}`, this.base);
    u.protocol = u.protocol === "https:" ? "wss:" : "ws:";
    if (this.token) u.searchParams.set("session", this.token);
    return u.href;
  }

  open() {
    clearTimeout(this.timer);
    this.stopped = false;
    if (this.failures < OFFLINE_AFTER_FAILURES) this.onStatus(this.failures ? "reconnecting" : "connecting");
    const ws = new WebSocket(this.url());
    this.ws = ws;
    ws.onmessage = (e) => {
      let msg;
      try { msg = JSON.parse(e.data); } catch { return; }
      if (msg.type === "bye") {
        // The server ended the session (deleted, expired, or bye from another client).
        this.stopped = true;
        this.token = null;
        this.onStatus("offline", `Session ended${msg.reason ? `: ${msg.reason}` : ""}.`);
      }
      if (msg.type === "scene") {
        // The scene message is the handshake's end: the session (new or resumed) is live.
        if (this.token && msg.resumed === false && this.everConnected) {
          toast("session", "The old session had expired: this is a new one.");
        }
        this.token = msg.session;
        this.failures = 0;
        this.everConnected = true;
        this.onStatus("connected");
      }
      this.onMessage(msg);
    };
    ws.onclose = (e) => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (this.stopped) return;
      if (e.code === 4001) {
        // Another tab or client took this session over: do not fight it for the token.
        this.onStatus("offline", "This session was opened elsewhere.");
        return;
      }
      this.failures += 1;
      // Exponential backoff with jitter, so a restarted server is not hit by every tab at once.
      const delay = Math.min(BACKOFF_MAX_MS, BACKOFF_FIRST_MS * 2 ** (this.failures - 1));
      const offline = !navigator.onLine || this.failures >= OFFLINE_AFTER_FAILURES;
      this.onStatus(offline ? "offline" : "reconnecting", null, e);
      this.timer = setTimeout(() => this.open(), delay * (0.5 + Math.random() / 2));
    };
  }

  retryNow() {
    if (this.stopped || this.ws) return;
    this.open();
  }

  /** A fresh session (forgets the token), e.g. after a takeover. */
  restart() {
    this.token = null;
    this.failures = 0;
    this.close();
    this.open();
  }

  send(message) {
    if (this.ws?.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(message));
    return true;
  }

  close() {
    this.stopped = true;
    clearTimeout(this.timer);
    const ws = this.ws;
    this.ws = null;
    ws?.close(1000);
  }
}

// ---------------------------------------------------------------------------------------
// Widget kinds: how each is rendered, which DOM events it reports, how props apply.
//
// Each kind has:
//   create(widget)      → a new element (auto-render mode)
//   hydrate(el, widget) → prepares an element the page wrote (attach mode); optional
//   wire(el, send)      → adds DOM listeners; send(event, value?) reports a control event
//   props               → { name(el, value, widget) } applying one property
//   valueProp           → the property the user edits (guarded by seq/ack, see below)

// A control reports `event` only if the element allows it (data-event="a b" narrows it).
const wants = (el, event) => !el.dataset.event || el.dataset.event.split(/\s+/).includes(event);

function setEnabled(el, enabled) {
  const off = enabled === false;
  el.toggleAttribute("aria-disabled", off);
  if ("disabled" in el) el.disabled = off;
  el.querySelectorAll("button, input, select").forEach((c) => { c.disabled = off; });
}

/** Sets an input's value without moving the caret when it does not change. */
function setInputValue(el, text) {
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

const common = {
  backgroundColor(el, v) { el.style.backgroundColor = cssColor(v); },
  isHidden(el, v) { (el.closest("[data-bindery-field]") ?? el).hidden = v === true; },
  alpha(el, v) { el.style.opacity = typeof v === "number" && v < 1 ? String(v) : ""; },
  isEnabled(el, v) { setEnabled(el, v); },
};

function renderSegments(el, segments) {
  if (el.tagName === "SELECT") {
    el.replaceChildren(...segments.map((title, i) => h("option", { value: i, text: title })));
    return;
  }
  el.replaceChildren(...segments.map((title, i) =>
    h("button", { type: "button", role: "radio", "aria-checked": "false", "data-segment": i, text: title })));
}

function segmentButtons(el) {
  return [...el.querySelectorAll("[data-segment], button")];
}

function selectSegment(el, index) {
  if (el.tagName === "SELECT") { el.selectedIndex = index; return; }
  segmentButtons(el).forEach((b, i) => {
    b.setAttribute("aria-checked", String(i === index));
    b.tabIndex = i === index || (index < 0 && i === 0) ? 0 : -1; // roving tab stop
  });
  el.dataset.selected = index;
}

function rowText(row, name) {
  const v = row.fields ? row.fields[name] : row[name];
  return v === null || v === undefined ? "" : String(v);
}

function rowFieldNames(row) {
  return Object.keys(row.fields ?? row).filter((k) => k !== "id" && k !== "fields");
}

/** One list row: from the element's <template> (filling [data-field]) or a default. */
function renderRow(list, row) {
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

function rowElements(list) {
  return [...list.children].filter((c) => c.dataset.row !== undefined);
}

/**
 * Applies keyed list operations (insert/remove/update/move, in order). Returns false
 * when an op does not fit the rows shown (then the caller asks for a resync).
 */
function applyListOps(list, ops) {
  for (const op of ops) {
    const rows = rowElements(list);
    const index = op.op === "move" ? op.from : op.index;
    const limit = op.op === "insert" ? rows.length : rows.length - 1;
    if (!(index >= 0 && index <= limit)) return false;
    switch (op.op) {
      case "insert": {
        const before = rows[op.index] ?? null;
        const frag = document.createDocumentFragment();
        op.rows.forEach((r) => frag.append(renderRow(list, r)));
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
  list.classList.toggle("bd-empty", rowElements(list).length === 0);
  return true;
}

const KINDS = {
  view: {
    create: () => h("div", { class: "bd-view" }),
  },

  label: {
    create: () => h("span", { class: "bd-label" }),
    props: {
      text(el, v) { el.textContent = v ?? ""; },
      textColor(el, v) { el.style.color = cssColor(v); },
    },
  },

  button: {
    create: () => h("button", { type: "button", class: "bd-button" }),
    wire(el, send) {
      el.addEventListener("click", (e) => {
        if (el.getAttribute("aria-disabled") !== null) return;
        if (el.tagName === "A") e.preventDefault();
        if (wants(el, "touchUpInside")) send("touchUpInside");
      });
    },
    props: { title(el, v) { el.textContent = v ?? ""; } },
  },

  textField: {
    valueProp: "text",
    create: () => h("input", { type: "text", class: "bd-input", autocomplete: "off", spellcheck: "false" }),
    wire(el, send) {
      el.addEventListener("focus", () => wants(el, "editingDidBegin") && send("editingDidBegin"));
      el.addEventListener("input", () => wants(el, "editingChanged") && send("editingChanged", el.value, { rate: true }));
      el.addEventListener("blur", () => wants(el, "editingDidEnd") && send("editingDidEnd", el.value));
      el.addEventListener("keydown", (e) => {
        // Return ends editing "on exit" (UIKit's Return key); the field keeps focus.
        if (e.key === "Enter" && !e.isComposing && wants(el, "editingDidEndOnExit")) {
          e.preventDefault();
          send("editingDidEndOnExit", el.value);
        }
      });
    },
    props: {
      text(el, v) { setInputValue(el, v); },
      placeholder(el, v) { el.placeholder = v ?? ""; },
      isSecureTextEntry(el, v) { if (el.tagName === "INPUT") el.type = v ? "password" : "text"; },
    },
  },

  slider: {
    valueProp: "value",
    create: () => h("input", { type: "range", class: "bd-slider", step: "any" }),
    hydrate(el) {
      // UISlider's value is continuous; a range input's default step (1) would round 0.5.
      if (!el.hasAttribute("step")) el.step = "any";
    },
    wire(el, send) {
      // UISlider is continuous by default: every move is a valueChanged.
      el.addEventListener("input", () => wants(el, "valueChanged") && send("valueChanged", el.valueAsNumber, { rate: true }));
    },
    props: {
      minimumValue(el, v) { el.min = v; },
      maximumValue(el, v) { el.max = v; },
      value(el, v) { if (el.valueAsNumber !== v) el.value = v; },
    },
  },

  switch: {
    valueProp: "isOn",
    create: () => h("input", { type: "checkbox", role: "switch", class: "bd-switch" }),
    wire(el, send) {
      el.addEventListener("change", () => wants(el, "valueChanged") && send("valueChanged", el.checked));
    },
    props: { isOn(el, v) { el.checked = v === true; } },
  },

  segmentedControl: {
    valueProp: "selectedSegmentIndex",
    create: () => h("div", { class: "bd-segmented", role: "radiogroup" }),
    hydrate(el) {
      if (el.tagName !== "SELECT" && !el.getAttribute("role")) el.setAttribute("role", "radiogroup");
    },
    wire(el, send) {
      const choose = (index) => {
        if (index === Number(el.dataset.selected ?? -1)) return; // UIKit: no event when unchanged
        selectSegment(el, index);
        if (wants(el, "valueChanged")) send("valueChanged", index);
      };
      if (el.tagName === "SELECT") {
        el.addEventListener("change", () => choose(el.selectedIndex));
        return;
      }
      el.addEventListener("click", (e) => {
        const b = e.target.closest("[data-segment], button");
        if (!b || !el.contains(b) || b.disabled) return;
        choose(segmentButtons(el).indexOf(b));
      });
      el.addEventListener("keydown", (e) => {
        // Arrow keys move between segments, as in a radio group.
        const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[e.key];
        const buttons = segmentButtons(el);
        if (!step || !buttons.length) return;
        e.preventDefault();
        const current = Math.max(0, Number(el.dataset.selected ?? 0));
        const next = (current + step + buttons.length) % buttons.length;
        choose(next);
        buttons[next].focus();
      });
    },
    props: {
      segments(el, v) {
        // A page may write its own segment buttons; only replace them when they differ.
        const titles = segmentButtons(el).map((b) => b.textContent);
        if (el.tagName === "SELECT" || titles.join("\n") !== (v ?? []).join("\n")) renderSegments(el, v ?? []);
        selectSegment(el, Number(el.dataset.selected ?? -1));
      },
      selectedSegmentIndex(el, v) { selectSegment(el, v); },
    },
  },

  stepper: {
    valueProp: "value",
    create: () => h("div", { class: "bd-stepper", role: "group" },
      h("button", { type: "button", "data-step": "-1", "aria-label": "Decrement", text: "−" }),
      h("output", { class: "bd-stepper-value" }),
      h("button", { type: "button", "data-step": "1", "aria-label": "Increment", text: "+" })),
    wire(el, send) {
      el.addEventListener("click", (e) => {
        const b = e.target.closest("[data-step]");
        if (!b || b.disabled) return;
        const s = el.bindery;
        const next = Math.min(s.maximumValue ?? Infinity, Math.max(s.minimumValue ?? -Infinity,
          (s.value ?? 0) + Number(b.dataset.step) * (s.stepValue ?? 1)));
        if (next === s.value) return;
        KINDS.stepper.props.value(el, next);
        if (wants(el, "valueChanged")) send("valueChanged", next);
      });
    },
    props: {
      value(el, v) {
        (el.bindery ??= {}).value = v;
        const out = el.querySelector("output, [data-field=value]");
        if (out) out.textContent = Number.isInteger(v) ? v : +Number(v).toFixed(3);
      },
      minimumValue(el, v) { (el.bindery ??= {}).minimumValue = v; },
      maximumValue(el, v) { (el.bindery ??= {}).maximumValue = v; },
      stepValue(el, v) { (el.bindery ??= {}).stepValue = v; },
    },
  },

  progressView: {
    create: () => h("progress", { class: "bd-progress", max: "1" }),
    props: { progress(el, v) { el.value = v ?? 0; } },
  },

  activityIndicator: {
    create: () => h("span", { class: "bd-spinner", role: "progressbar", "aria-label": "Loading" }),
    props: { isAnimating(el, v) { el.classList.toggle("bd-animating", v === true); el.setAttribute("aria-busy", String(v === true)); } },
  },

  imageView: {
    create: () => h("img", { class: "bd-image", alt: "" }),
    props: {
      image(el, v) {
        if (v) el.src = v; else el.removeAttribute("src");
        el.classList.toggle("bd-empty", !v);
      },
    },
  },

  datePicker: {
    valueProp: "date",
    create: () => h("input", { type: "datetime-local", class: "bd-input" }),
    wire(el, send) {
      el.addEventListener("change", () => {
        if (!el.value || !wants(el, "valueChanged")) return;
        send("valueChanged", new Date(el.value).toISOString()); // local time → ISO 8601 (UTC)
      });
    },
    props: {
      date(el, v) { const s = v ? toLocalInput(v) : ""; if (el.value !== s) el.value = s; },
      minimumDate(el, v) { if (v) el.min = toLocalInput(v); else el.removeAttribute("min"); },
      maximumDate(el, v) { if (v) el.max = toLocalInput(v); else el.removeAttribute("max"); },
    },
  },

  listView: {
    create: () => h("ul", { class: "bd-list" }),
    props: {
      items(el, rows) {
        rowElements(el).forEach((r) => r.remove());
        const frag = document.createDocumentFragment();
        (rows ?? []).forEach((r) => frag.append(renderRow(el, r)));
        el.append(frag);
        el.classList.toggle("bd-empty", !rows?.length);
      },
    },
  },
};

const FALLBACK_KIND = { create: (w) => h("div", { class: "bd-unknown", text: `(${w.kind})` }) };
const kindOf = (name) => KINDS[name] ?? FALLBACK_KIND;

/** Applies one property to an element bound with data-prop (display only). */
function applyDisplayProp(el, prop, value) {
  if (prop === "textColor") el.style.color = cssColor(value);
  else if (prop === "backgroundColor") el.style.backgroundColor = cssColor(value);
  else if (prop === "isHidden") el.hidden = value === true;
  else if ("value" in el && el.tagName !== "LI" && el.tagName !== "BUTTON") el.value = value ?? "";
  else el.textContent = value === null || value === undefined ? "" : typeof value === "number" ? +value.toFixed(3) : String(value);
}

// ---------------------------------------------------------------------------------------
// Status pill and error toasts

const STATUS_TEXT = {
  connecting: "Connecting…",
  connected: "Connected",
  reconnecting: "Reconnecting…",
  offline: "Offline",
};

function statusElement(option) {
  if (option === false) return null;
  if (option instanceof Element) return option;
  const existing = document.querySelector("[data-bindery-status]");
  if (existing) return existing;
  const el = h("div", { class: "bd-status bd-status-floating", "data-bindery-status": true });
  document.body.append(el);
  return el;
}

function showStatus(el, state, detail, onRetry) {
  if (!el) return;
  el.classList.add("bd-status");
  el.dataset.state = state;
  el.setAttribute("role", "status");
  el.title = detail ?? "";
  el.replaceChildren(h("span", { class: "bd-dot", "aria-hidden": "true" }), h("span", { text: STATUS_TEXT[state] ?? state }));
  if (state === "offline" && onRetry) {
    const b = h("button", { type: "button", class: "bd-link", text: detail ? "Start a new session" : "Retry" });
    b.addEventListener("click", () => onRetry(Boolean(detail)));
    el.append(b);
  }
}

let toastBox = null;
/** Shows an error unobtrusively: its stable code and message, gone after a few seconds. */
export function toast(code, message) {
  if (!toastBox) {
    toastBox = h("div", { class: "bd-toasts", role: "status", "aria-live": "polite" });
    document.body.append(toastBox);
  }
  while (toastBox.children.length >= 3) toastBox.firstElementChild.remove();
  const t = h("div", { class: "bd-toast" }, h("code", { text: code }), h("span", { text: message ?? "" }));
  toastBox.append(t);
  setTimeout(() => t.remove(), 5000);
}

// ---------------------------------------------------------------------------------------
// The client: keeps widgets and their elements in step with the server.
//
// seq/ack: every event carries a rising `seq`; the server answers each with `ack` = that
// seq, in order, so `lastAck` is "everything up to here has been processed". For each
// widget we remember the seq of the last value-carrying event sent from it. While that
// seq is above lastAck (or a debounced edit is waiting to go), the server cannot know
// about the user's latest edit, so any value it sends for that widget's value property
// is stale: it is ignored, and the caret never jumps. The server's answer to our own
// event carries only changes a binding made (e.g. clamping), and it is applied once
// acked — unless the user has typed again since.

const FIRST = ["stepValue", "maximumDate", "minimumDate", "maximumValue", "minimumValue", "segments"]; // last = first applied

class Client {
  constructor({ scene, root, mode, status, base, onScene, onPatch, onError }) {
    if (!scene) throw new Error("bindery: no scene name (use /scene/<name>, ?scene= or attach({ scene }))");
    this.scene = scene;
    this.root = root ?? document;
    this.mode = mode; // "render" or "attach"
    this.hooks = { onScene, onPatch, onError };
    this.widgets = new Map(); // id → { id, kind, props }
    this.elements = new Map(); // id → [{ el, kind, prop }]
    this.seq = 0;
    this.lastAck = 0;
    this.sentSeq = new Map(); // id → seq of the last value-carrying event sent for it
    this.waiting = new Map(); // id → a debounce/throttle timer holding an unsent edit
    this.lastSendAt = new Map(); // id → time of the last throttled send
    this.wired = new WeakSet();
    this.statusEl = statusElement(status);
    this.conn = new Connection({
      scene,
      base,
      onMessage: (m) => this.receive(m),
      onStatus: (state, detail = null) => {
        if (state === this.state && detail === this.statusDetail) return;
        this.state = state;
        this.statusDetail = detail;
        document.documentElement.dataset.binderyState = state;
        showStatus(this.statusEl, state, detail, (fresh) => (fresh ? this.conn.restart() : this.conn.retryNow()));
        if (state !== "connected" && !this.conn.everConnected && this.mode === "render" && this.conn.failures === 1) {
          this.checkSceneExists();
        }
      },
    });
    this.conn.open();
  }

  /** Sends a control event for widget `target`. Returns the seq, or 0 if not sent. */
  send(target, event, value) {
    const seq = ++this.seq;
    const message = { type: "event", seq, target, event };
    if (value !== undefined) message.value = value;
    if (!this.conn.send(message)) {
      // Offline: remember the edit as unsent; it is re-sent when the session resumes.
      if (value !== undefined) this.sentSeq.set(target, Infinity);
      else if (event === "touchUpInside") toast("offline", "Not connected: the tap was not sent.");
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
  emit(el, target, event, value, { rate } = {}) {
    if (value !== undefined) this.mirror(el, target, value);
    const debounce = Number(el.dataset.debounce);
    const throttle = Number(el.dataset.throttle);
    const flush = () => { this.waiting.delete(target); this.send(target, event, el.bindery?.latest ?? value); };
    if (!rate) {
      // A discrete event (focus, blur, Return, tap) first sends any edit still waiting,
      // so the server sees the events in the order the user made them.
      this.flushWaiting(target);
      this.send(target, event, value);
      return;
    }
    (el.bindery ??= {}).latest = value;
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
    const prop = w && kindOf(w.kind).valueProp;
    if (!prop) return;
    w.props[prop] = value;
    for (const b of this.elements.get(target) ?? []) {
      if (b.el === source) {
        if (b.readout && prop === "value") b.readout.textContent = Number(value).toFixed(2);
      } else if (b.prop === prop) {
        applyDisplayProp(b.el, prop, value);
      } else if (!b.prop) {
        kindOf(b.kind).props?.[prop]?.(b.el, value, w);
      }
    }
  }

  flushWaiting(target) {
    const w = this.waiting.get(target);
    if (!w) return;
    clearTimeout(w.timer);
    w.flush();
  }

  receive(msg) {
    if (typeof msg.ack === "number" && msg.ack > this.lastAck) this.lastAck = msg.ack;
    switch (msg.type) {
      case "scene": return this.onScene(msg);
      case "patch": return this.onPatch(msg);
      case "bye": return;
      case "error":
        toast(msg.code ?? "error", msg.message);
        this.hooks.onError?.(msg);
        return;
      default:
        console.debug("bindery: ignoring message", msg);
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
      toast("protocol", `Server speaks protocol ${msg.protocol}; this page speaks ${PROTOCOL}.`);
    }
    // After a reconnect, events never answered are lost or already in the snapshot:
    // edits among them are re-sent below, so the snapshot wins everywhere else.
    // (mirror() keeps each widget's latest local value in its props.)
    const unsent = new Map();
    if (!isResync) {
      for (const [id, seq] of this.sentSeq) {
        const w = this.widgets.get(id);
        if (seq > this.lastAck && w) unsent.set(id, w.props[kindOf(w.kind).valueProp]);
      }
      this.lastAck = this.seq;
      this.sentSeq.clear();
    }

    const sameShape = this.widgets.size === msg.widgets.length &&
      msg.widgets.every((w) => this.widgets.get(w.id)?.kind === w.kind);
    const previous = this.widgets;
    this.widgets = new Map(msg.widgets.map((w) => [w.id, { ...w, props: { ...w.props } }]));
    if (this.mode === "render" && !sameShape) this.renderTree(msg);
    if (this.mode === "attach") this.bindMarkup();

    for (const w of msg.widgets) {
      const keep = unsent.has(w.id) || this.hasUnackedEdit(w.id) ? kindOf(w.kind).valueProp : null;
      if (keep) this.widgets.get(w.id).props[keep] = previous.get(w.id)?.props[keep];
      // Ranges and segment titles first, so a value is not clamped to a default range.
      const props = Object.entries(w.props ?? {}).sort(([a], [b]) => FIRST.indexOf(b) - FIRST.indexOf(a));
      for (const [prop, value] of props) {
        if (prop !== keep) this.applyProp(w.id, prop, value);
      }
    }
    // What the user typed while the connection was down is not lost: send it now.
    for (const [id, value] of unsent) {
      const w = this.widgets.get(id);
      if (!w || value === undefined) continue;
      w.props[kindOf(w.kind).valueProp] = value;
      this.send(id, w.kind === "textField" ? "editingChanged" : "valueChanged", value);
    }
    this.hooks.onScene?.(msg);
  }

  onPatch(msg) {
    for (const c of msg.changes ?? []) {
      const w = this.widgets.get(c.target);
      if (!w) continue;
      if (c.prop === kindOf(w.kind).valueProp && this.hasUnackedEdit(c.target)) continue; // stale
      if (c.ops) {
        const rows = (w.props.items ??= []);
        for (const op of c.ops) applyOpToArray(rows, op);
        for (const b of this.elements.get(c.target) ?? []) {
          if (!b.prop && !applyListOps(b.el, c.ops)) this.resync();
        }
      } else {
        this.applyProp(c.target, c.prop, c.value);
      }
    }
    this.hooks.onPatch?.(msg);
  }

  applyProp(id, prop, value) {
    const w = this.widgets.get(id);
    if (!w) return;
    w.props[prop] = value;
    for (const b of this.elements.get(id) ?? []) {
      if (b.prop) { if (b.prop === prop) applyDisplayProp(b.el, prop, value); continue; }
      const apply = kindOf(b.kind).props?.[prop] ?? common[prop];
      apply?.(b.el, value, w);
      if (b.readout && prop === "value") b.readout.textContent = Number(value).toFixed(2);
    }
  }

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
    kindOf(kind).hydrate?.(el, this.widgets.get(id));
    kindOf(kind).wire?.(el, (event, value, opts) => this.emit(el, id, event, value, opts));
  }

  /** Attach mode: binds every [data-bind] element under the root. */
  bindMarkup() {
    for (const el of this.root.querySelectorAll("[data-bind]")) {
      const id = el.dataset.bind;
      const w = this.widgets.get(id);
      if (!w) {
        console.warn(`bindery: no widget '${id}' in scene '${this.scene}'`);
        continue;
      }
      this.bindElement(el, id, el.dataset.kind ?? w.kind, el.dataset.prop);
    }
  }

  /** Render mode: one field (caption + control) per widget, in the scene's order. */
  renderTree(msg) {
    this.elements.clear();
    const fields = msg.widgets.map((w) => {
      const el = kindOf(w.kind).create(w);
      el.id = `w-${w.id}`;
      if (!["INPUT", "PROGRESS"].includes(el.tagName)) el.setAttribute("aria-label", w.id);
      const field = h("div", { class: `bd-field bd-field-${w.kind}`, "data-bindery-field": true },
        h("label", { class: "bd-caption", for: el.id },
          h("span", { class: "bd-caption-id", text: w.id }), h("span", { class: "bd-caption-kind", text: w.kind })),
        el);
      this.bindElement(el, w.id, w.kind);
      if (w.kind === "slider") {
        // A numeric readout next to a slider: sliders have no text of their own.
        const readout = h("output", { class: "bd-readout", for: el.id });
        el.after(readout);
        this.elements.get(w.id)[0].readout = readout;
        field.classList.add("bd-has-readout");
      }
      if (w.kind === "view") field.querySelector("label").removeAttribute("for");
      return field;
    });
    // The scene's layout (rows, columns, titled groups of widget ids), if it has one;
    // widgets it leaves out follow in order.
    const byId = new Map(msg.widgets.map((w, i) => [w.id, fields[i]]));
    const placed = msg.layout ? [layoutElement(msg.layout, byId)] : [];
    const rest = msg.widgets.filter((w) => byId.has(w.id)).map((w) => byId.get(w.id));
    // A form, so password managers and the browser see a real form; it never submits.
    const form = h("form", { class: "bd-form", autocomplete: "off", novalidate: true }, ...placed, ...rest);
    form.addEventListener("submit", (e) => e.preventDefault());
    this.root.replaceChildren(form);
    this.root.setAttribute("aria-busy", "false");
  }

  async checkSceneExists() {
    try {
      const res = await fetch(new URL("/api/scenes", window.location.href));
      if (!res.ok) return;
      const names = sceneNames(await res.json());
      if (!names.includes(this.scene)) {
        this.conn.close();
        showStatus(this.statusEl, "offline", "No such scene");
        this.root.replaceChildren(h("p", { class: "bd-notice" },
          `There is no scene named “${this.scene}”. `, h("a", { href: "/", text: "See the list of scenes." })));
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

/**
 * A layout node as elements: "id" is that widget's field, {row: [...]} side by side,
 * {column: [...]} stacked, {group: "Title", children: [...]} stacked under a heading.
 * Each field is used once (taken out of `fields`).
 */
function layoutElement(node, fields) {
  if (typeof node === "string") {
    const field = fields.get(node);
    fields.delete(node);
    return field ?? document.createTextNode("");
  }
  const children = (items) => (items ?? []).map((n) => layoutElement(n, fields));
  if (node.row) return h("div", { class: "bd-layout-row" }, ...children(node.row));
  if (node.column) return h("div", { class: "bd-layout-column" }, ...children(node.column));
  if (node.group !== undefined) {
    return h("section", { class: "bd-layout-group" }, h("h2", { class: "bd-group-title", text: node.group }), ...children(node.children));
  }
  return document.createTextNode("");
}

/** Keeps a widget's cached `items` array in step with list ops (for re-renders). */
function applyOpToArray(rows, op) {
  switch (op.op) {
    case "insert": rows.splice(op.index, 0, ...op.rows); break;
    case "remove": rows.splice(op.index, op.count ?? 1); break;
    case "update": rows[op.index] = op.row; break;
    case "move": rows.splice(op.to, 0, ...rows.splice(op.from, 1)); break;
  }
}

/** Scene names from GET /api/scenes, whichever shape it has. */
export function sceneNames(body) {
  const list = Array.isArray(body) ? body : body?.scenes ?? [];
  return list.map((s) => (typeof s === "string" ? s : s.name));
}

// ---------------------------------------------------------------------------------------
// Public API

/**
 * Auto-renders a scene into `root`.
 * Options: scene (default: from the URL), root (default: [data-bindery-root] or <main>),
 * status (an element, or false for none), onScene/onPatch/onError hooks.
 */
export function render(options = {}) {
  const root = options.root ?? document.querySelector("[data-bindery-root]") ?? document.querySelector("main") ?? document.body;
  return new Client({ ...options, scene: options.scene ?? sceneFromLocation(), root, mode: "render" });
}

/**
 * Attaches to the page's own markup: elements with data-bind="<widget id>" (optional
 * data-prop="<property>" for display-only elements, data-event="<event …>" to choose
 * what an element reports, data-debounce / data-throttle="<ms>" on inputs).
 */
export function attach(options = {}) {
  return new Client({ ...options, scene: options.scene ?? sceneFromLocation(), root: options.root ?? document, mode: "attach" });
}

export { cssColor, KINDS as kinds };
