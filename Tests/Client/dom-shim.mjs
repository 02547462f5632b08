// dom-shim.mjs — just enough of a browser for the client's modules under Node: a
// document of elements (attributes, classList, dataset, style, children, events, focus,
// a small CSS selector engine), window with location, history and matchMedia, storage,
// navigator, CSS.escape, and a fake clock. Importing it installs the globals.
//
// Not a browser: no layout (sizes are 0), no default actions (a click on a button does
// not submit), events bubble but do not capture-first. Enough to run the client's logic.

// ---- events -------------------------------------------------------------------------

export class ShimEvent {
  constructor(type, init = {}) {
    this.type = type;
    this.bubbles = init.bubbles ?? false;
    this.defaultPrevented = false;
    this.propagationStopped = false;
    Object.assign(this, init);
  }
  preventDefault() { this.defaultPrevented = true; }
  stopPropagation() { this.propagationStopped = true; }
  stopImmediatePropagation() { this.propagationStopped = true; }
}

class Target {
  constructor() { this.listeners = new Map(); }
  addEventListener(type, fn) {
    if (typeof fn !== "function") return;
    const list = this.listeners.get(type) ?? [];
    if (!list.includes(fn)) list.push(fn);
    this.listeners.set(type, list);
  }
  removeEventListener(type, fn) {
    const list = this.listeners.get(type);
    if (list) this.listeners.set(type, list.filter((f) => f !== fn));
  }
  /** Runs this node's listeners, then (if the event bubbles) its ancestors'. */
  dispatchEvent(event) {
    if (event.target === undefined) event.target = this;
    for (let node = this; node; node = event.bubbles ? node.parentNode ?? (node === document ? window : null) : null) {
      event.currentTarget = node;
      for (const fn of [...(node.listeners.get(event.type) ?? [])]) fn.call(node, event);
      if (event.propagationStopped) break;
    }
    return !event.defaultPrevented;
  }
}

// ---- nodes --------------------------------------------------------------------------

class Node extends Target {
  constructor() {
    super();
    this.parentNode = null;
    this.childNodes = [];
  }
  get parentElement() { return this.parentNode instanceof Element ? this.parentNode : null; }
  get firstChild() { return this.childNodes[0] ?? null; }
  get lastChild() { return this.childNodes.at(-1) ?? null; }
  get nextSibling() { const s = this.parentNode?.childNodes; return s ? s[s.indexOf(this) + 1] ?? null : null; }
  get previousSibling() { const s = this.parentNode?.childNodes; return s ? s[s.indexOf(this) - 1] ?? null : null; }
  get isConnected() {
    let n = this;
    while (n.parentNode) n = n.parentNode;
    return n === document;
  }
  get textContent() { return this.childNodes.map((c) => c.textContent).join(""); }
  set textContent(v) {
    this.replaceChildren();
    if (v !== "" && v !== null && v !== undefined) this.append(String(v));
  }
  contains(node) {
    for (let n = node; n; n = n.parentNode) if (n === this) return true;
    return false;
  }
  insertBefore(node, ref) {
    if (node instanceof Fragment) {
      for (const c of [...node.childNodes]) this.insertBefore(c, ref);
      return node;
    }
    if (ref && ref.parentNode !== this) throw new Error("insertBefore: the reference is not a child");
    node.remove?.();
    node.parentNode = this;
    const at = ref ? this.childNodes.indexOf(ref) : this.childNodes.length;
    this.childNodes.splice(at, 0, node);
    return node;
  }
  appendChild(node) { return this.insertBefore(node, null); }
  removeChild(node) { node.remove(); return node; }
  append(...nodes) { for (const n of nodes) this.appendChild(toNode(n)); }
  prepend(...nodes) { const first = this.firstChild; for (const n of nodes) this.insertBefore(toNode(n), first); }
  replaceChildren(...nodes) {
    for (const c of [...this.childNodes]) c.remove();
    this.append(...nodes);
  }
  remove() {
    const p = this.parentNode;
    if (!p) return;
    if (this.contains(document.activeElement) && this !== document) document.activeElement = document.body;
    p.childNodes.splice(p.childNodes.indexOf(this), 1);
    this.parentNode = null;
  }
  replaceWith(node) {
    const p = this.parentNode;
    if (!p) return;
    const next = this.nextSibling;
    this.remove();
    p.insertBefore(toNode(node), next);
  }
  after(...nodes) { const p = this.parentNode; const next = this.nextSibling; for (const n of nodes) p.insertBefore(toNode(n), next); }
  before(...nodes) { for (const n of nodes) this.parentNode.insertBefore(toNode(n), this); }
  get children() { return this.childNodes.filter((c) => c instanceof Element); }
  get firstElementChild() { return this.children[0] ?? null; }
  get lastElementChild() { return this.children.at(-1) ?? null; }
  /** Every element below this node, in document order. */
  *descendants() {
    for (const c of this.children) { yield c; yield* c.descendants(); }
  }
  querySelectorAll(selector) {
    const list = parseSelectorList(selector);
    return [...this.descendants()].filter((el) => list.some((s) => matchComplex(el, s, this)));
  }
  querySelector(selector) { return this.querySelectorAll(selector)[0] ?? null; }
}

class Text extends Node {
  constructor(data) { super(); this.data = String(data); }
  get textContent() { return this.data; }
  set textContent(v) { this.data = String(v); }
  cloneNode() { return new Text(this.data); }
}

class Fragment extends Node {}

const toNode = (n) => (n instanceof Node ? n : new Text(n));
const camel = (s) => s.replace(/-([a-z])/g, (_, c) => c.toUpperCase());
const kebab = (s) => s.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
// Tags whose elements have a `value` (applyDisplayProp writes it instead of the text).
const VALUED = new Set(["INPUT", "TEXTAREA", "SELECT", "OUTPUT", "PROGRESS", "METER", "OPTION"]);

export class Element extends Node {
  constructor(tag, ns = null) {
    super();
    this.tagName = ns ? tag : tag.toUpperCase();
    this.namespaceURI = ns;
    this.attrs = new Map();
    this.style = new Style();
    this.hidden = false;
    this.scrollTop = 0;
    this.scrollLeft = 0;
    if (VALUED.has(this.tagName)) {
      this.value = "";
      this.disabled = false;
    }
    if (this.tagName === "BUTTON") this.disabled = false;
    if (this.tagName === "INPUT") { this.type = "text"; this.selectionStart = 0; this.selectionEnd = 0; }
    if (this.tagName === "DIALOG") this.open = false;
    if (this.tagName === "TEMPLATE") this.content = new Fragment();
    const el = this;
    this.dataset = new Proxy({}, {
      get: (_, k) => (typeof k === "string" ? el.attrs.get(`data-${kebab(k)}`) : undefined),
      set: (_, k, v) => { el.setAttribute(`data-${kebab(k)}`, String(v)); return true; },
      deleteProperty: (_, k) => { el.removeAttribute(`data-${kebab(k)}`); return true; },
      has: (_, k) => el.attrs.has(`data-${kebab(k)}`),
      ownKeys: () => [...el.attrs.keys()].filter((a) => a.startsWith("data-")).map((a) => camel(a.slice(5))),
      getOwnPropertyDescriptor: (_, k) => (el.attrs.has(`data-${kebab(k)}`)
        ? { value: el.attrs.get(`data-${kebab(k)}`), enumerable: true, configurable: true } : undefined),
    });
  }
  get nodeType() { return 1; }
  get localName() { return this.tagName.toLowerCase(); }
  get id() { return this.attrs.get("id") ?? ""; }
  set id(v) { this.setAttribute("id", v); }
  get className() { return this.attrs.get("class") ?? ""; }
  set className(v) { this.setAttribute("class", v); }
  get classList() { return new ClassList(this); }
  get tabIndex() { return Number(this.attrs.get("tabindex") ?? -1); }
  set tabIndex(v) { this.setAttribute("tabindex", String(v)); }
  get valueAsNumber() { return this.value === "" ? NaN : Number(this.value); }
  set valueAsNumber(v) { this.value = String(v); }
  setAttribute(name, value) { this.attrs.set(name.toLowerCase(), String(value)); }
  getAttribute(name) { return this.attrs.get(name.toLowerCase()) ?? null; }
  hasAttribute(name) { return this.attrs.has(name.toLowerCase()); }
  removeAttribute(name) { this.attrs.delete(name.toLowerCase()); }
  toggleAttribute(name, force) {
    const on = force ?? !this.hasAttribute(name);
    if (on) this.setAttribute(name, this.getAttribute(name) ?? ""); else this.removeAttribute(name);
    return on;
  }
  matches(selector) { return parseSelectorList(selector).some((s) => matchComplex(this, s, null)); }
  closest(selector) {
    for (let n = this; n instanceof Element; n = n.parentNode) if (n.matches(selector)) return n;
    return null;
  }
  cloneNode(deep = false) {
    const copy = new Element(this.tagName, this.namespaceURI);
    for (const [k, v] of this.attrs) copy.attrs.set(k, v);
    if (deep) for (const c of this.childNodes) copy.appendChild(c.cloneNode(true));
    return copy;
  }
  focus() {
    if (document.activeElement === this || !this.isConnected) return;
    const previous = document.activeElement;
    document.activeElement = this;
    if (previous && previous !== document.body) previous.dispatchEvent(new ShimEvent("blur"));
    this.dispatchEvent(new ShimEvent("focus"));
    this.dispatchEvent(new ShimEvent("focusin", { bubbles: true }));
  }
  blur() {
    if (document.activeElement !== this) return;
    document.activeElement = document.body;
    this.dispatchEvent(new ShimEvent("blur"));
  }
  click() { this.dispatchEvent(new ShimEvent("click", { bubbles: true })); }
  showModal() { this.open = true; }
  show() { this.open = true; }
  close() { this.open = false; }
  setSelectionRange(start, end) { this.selectionStart = start; this.selectionEnd = end; }
  getBoundingClientRect() { return { top: 0, left: 0, right: 0, bottom: 0, width: 0, height: 0, x: 0, y: 0 }; }
  scrollTo() {}
  scrollIntoView() {}
  get clientWidth() { return 0; }
  get clientHeight() { return 0; }
  get scrollHeight() { return 0; }
  get offsetTop() { return 0; }
  get offsetWidth() { return 0; }
  get offsetHeight() { return 0; }
  getBBox() { return { x: 0, y: 0, width: 0, height: 0 }; }
  getComputedTextLength() { return 0; }
}

class ClassList {
  constructor(el) { this.el = el; }
  get list() { return this.el.className.split(/\s+/).filter(Boolean); }
  set list(v) { this.el.className = v.join(" "); }
  contains(c) { return this.list.includes(c); }
  add(...cs) { this.list = [...new Set([...this.list, ...cs])]; }
  remove(...cs) { this.list = this.list.filter((c) => !cs.includes(c)); }
  toggle(c, force) {
    const on = force ?? !this.contains(c);
    if (on) this.add(c); else this.remove(c);
    return on;
  }
  get length() { return this.list.length; }
  [Symbol.iterator]() { return this.list[Symbol.iterator](); }
}

class Style {
  setProperty(k, v) { this[k] = v; }
  getPropertyValue(k) { return this[k] ?? ""; }
  removeProperty(k) { delete this[k]; }
}

// ---- selectors ----------------------------------------------------------------------
// Compound selectors (tag, #id, .class, [attr], [attr=v], ^= $= *= ~=, :not(), :scope)
// joined by descendant (space) or child (>) combinators, in comma lists.

function splitTop(text, sep) {
  const out = [];
  let depth = 0;
  let quote = null;
  let cur = "";
  for (const ch of text) {
    if (quote) { if (ch === quote) quote = null; cur += ch; continue; }
    if (ch === '"' || ch === "'") quote = ch;
    else if (ch === "[" || ch === "(") depth++;
    else if (ch === "]" || ch === ")") depth--;
    if (depth === 0 && sep.test(ch)) { out.push(cur); cur = ""; continue; }
    cur += ch;
  }
  out.push(cur);
  return out;
}

const cache = new Map();
function parseSelectorList(selector) {
  if (!cache.has(selector)) cache.set(selector, splitTop(selector, /,/).map((s) => parseComplex(s.trim())));
  return cache.get(selector);
}

/** A complex selector: compounds right to left, each with the combinator to its left. */
function parseComplex(text) {
  const parts = [];
  let combinator = null;
  for (const token of splitTop(text.replace(/\s*>\s*/g, " > "), /\s/).filter(Boolean)) {
    if (token === ">") { combinator = ">"; continue; }
    parts.push({ compound: parseCompound(token), combinator: parts.length ? combinator ?? " " : null });
    combinator = null;
  }
  return parts.reverse();
}

function parseCompound(text) {
  const c = { tag: null, ids: [], classes: [], attrs: [], nots: [], scope: false };
  const re = /^(\*|[a-zA-Z][\w-]*)|#([\w-]+)|\.([\w-]+)|\[\s*([\w-]+)\s*(?:([~^$*]?=)\s*(?:"([^"]*)"|'([^']*)'|([^\]\s]*)))?\s*\]|:not\((.*?)\)(?![^(]*\))|:scope/g;
  let m;
  let consumed = 0;
  while ((m = re.exec(text))) {
    if (m.index !== consumed) throw new Error(`dom-shim: unsupported selector '${text}'`);
    consumed = re.lastIndex;
    if (m[1] && m[1] !== "*") c.tag = m[1].toUpperCase();
    else if (m[2]) c.ids.push(m[2]);
    else if (m[3]) c.classes.push(m[3]);
    else if (m[4]) c.attrs.push({ name: m[4].toLowerCase(), op: m[5], value: m[6] ?? m[7] ?? m[8] });
    else if (m[9] !== undefined) c.nots.push(parseSelectorList(m[9]));
    else if (m[0] === ":scope") c.scope = true;
  }
  if (consumed !== text.length) throw new Error(`dom-shim: unsupported selector '${text}'`);
  return c;
}

function matchCompound(el, c, scope) {
  if (!(el instanceof Element)) return false;
  if (c.scope && el !== scope) return false;
  if (c.tag && el.tagName.toUpperCase() !== c.tag) return false;
  if (c.ids.some((id) => el.id !== id)) return false;
  if (c.classes.length) { const cl = el.classList; if (!c.classes.every((x) => cl.contains(x))) return false; }
  for (const a of c.attrs) {
    const v = el.getAttribute(a.name);
    if (v === null) return false;
    if (!a.op) continue;
    if (a.op === "=" && v !== a.value) return false;
    if (a.op === "^=" && !v.startsWith(a.value)) return false;
    if (a.op === "$=" && !v.endsWith(a.value)) return false;
    if (a.op === "*=" && !v.includes(a.value)) return false;
    if (a.op === "~=" && !v.split(/\s+/).includes(a.value)) return false;
  }
  return !c.nots.some((list) => list.some((s) => matchComplex(el, s, scope)));
}

function matchComplex(el, parts, scope, i = 0) {
  if (!matchCompound(el, parts[i].compound, scope)) return false;
  if (i === parts.length - 1) return true;
  const combinator = parts[i].combinator;
  // :scope may be the document itself (document.querySelectorAll(":scope > x") is rare).
  const up = (n) => (n.parentNode instanceof Element || (parts[i + 1].compound.scope && n.parentNode === scope) ? n.parentNode : null);
  if (combinator === ">") {
    const p = up(el);
    return p ? (p === scope && parts[i + 1].compound.scope ? i + 1 === parts.length - 1 : matchComplex(p, parts, scope, i + 1)) : false;
  }
  for (let p = up(el); p; p = up(p)) {
    if (p === scope && parts[i + 1].compound.scope) return i + 1 === parts.length - 1;
    if (matchComplex(p, parts, scope, i + 1)) return true;
  }
  return false;
}

// ---- document and window ------------------------------------------------------------

class Document extends Node {
  constructor() {
    super();
    this.documentElement = new Element("html");
    this.head = new Element("head");
    this.body = new Element("body");
    this.documentElement.append(this.head, this.body);
    this.appendChild(this.documentElement);
    this.activeElement = this.body;
    this.visibilityState = "visible";
    this.hidden = false;
  }
  createElement(tag) { return new Element(tag); }
  createElementNS(ns, tag) { return new Element(tag, ns); }
  createDocumentFragment() { return new Fragment(); }
  createTextNode(text) { return new Text(text); }
  get nodeType() { return 9; }
}

class Storage {
  constructor() { this.map = new Map(); }
  getItem(k) { return this.map.has(k) ? this.map.get(k) : null; }
  setItem(k, v) { this.map.set(k, String(v)); }
  removeItem(k) { this.map.delete(k); }
  clear() { this.map.clear(); }
  get length() { return this.map.size; }
}

class Window extends Target {
  constructor() {
    super();
    this.setLocation("http://localhost:8080/scene/echo");
    this.history = {
      entries: [],
      state: null,
      pushState: (state, _t, url) => { this.history.entries.push(url); this.history.state = state; if (url) this.setLocation(new URL(url, this.location.href).href); },
      replaceState: (state, _t, url) => { this.history.state = state; if (url) this.setLocation(new URL(url, this.location.href).href); },
      back() {},
      go() {},
    };
  }
  /** Points window.location at `href` (a page's address). */
  setLocation(href) {
    const u = new URL(href);
    this.location = {
      href: u.href, origin: u.origin, protocol: u.protocol, host: u.host, hostname: u.hostname, port: u.port,
      pathname: u.pathname, search: u.search, hash: u.hash, assign() {}, reload() {},
    };
  }
}

export let document;
export let window;

/** A fresh document, window and storage (each test file gets one at import; call again to start over). */
export function resetDOM({ href = "http://localhost:8080/scene/echo" } = {}) {
  document = new Document();
  window = new Window();
  window.setLocation(href);
  const globals = {
    document, window, Element, HTMLElement: Element, Node, Event: ShimEvent,
    sessionStorage: new Storage(), localStorage: new Storage(),
    navigator: { onLine: true, userAgent: "dom-shim" },
    CSS: { escape: (s) => String(s).replace(/["\\\]\[]/g, "\\$&") },
    matchMedia: (query) => ({ media: query, matches: false, addEventListener() {}, removeEventListener() {} }),
    ResizeObserver: class { observe() {} unobserve() {} disconnect() {} },
    IntersectionObserver: class { observe() {} unobserve() {} disconnect() {} },
    requestAnimationFrame: (fn) => setTimeout(() => fn(0), 0),
    cancelAnimationFrame: (id) => clearTimeout(id),
    // No network in tests: GET /api/scenes (the client's "does this page exist" check) fails quietly.
    fetch: async () => ({ ok: false, status: 503, json: async () => ({}) }),
  };
  for (const [k, v] of Object.entries(globals)) {
    Object.defineProperty(globalThis, k, { value: v, writable: true, configurable: true });
  }
  // Bare `location` and `history` are the window's (window.location is replaced on setLocation).
  Object.defineProperty(globalThis, "location", { get: () => window.location, configurable: true });
  Object.defineProperty(globalThis, "history", { get: () => window.history, configurable: true });
  return { document, window };
}

resetDOM();

// ---- a fake clock -------------------------------------------------------------------

/**
 * Replaces setTimeout/clearTimeout with a clock that moves only when told:
 * `clock.tick(ms)` runs what falls due, `clock.pending()` lists the timers.
 * `clock.restore()` puts the real ones back.
 */
export function installClock() {
  const real = { setTimeout: globalThis.setTimeout, clearTimeout: globalThis.clearTimeout, now: Date.now };
  let now = 0;
  let next = 1;
  const timers = new Map();
  const clock = {
    get now() { return now; },
    pending: () => [...timers.values()].sort((a, b) => a.at - b.at).map((t) => ({ id: t.id, delay: t.delay, at: t.at })),
    tick(ms) {
      const end = now + ms;
      for (;;) {
        const due = [...timers.values()].filter((t) => t.at <= end).sort((a, b) => a.at - b.at || a.id - b.id)[0];
        if (!due) break;
        timers.delete(due.id);
        now = due.at;
        due.fn(...due.args);
      }
      now = end;
    },
    restore() { Object.assign(globalThis, { setTimeout: real.setTimeout, clearTimeout: real.clearTimeout }); Date.now = real.now; },
  };
  globalThis.setTimeout = (fn, delay = 0, ...args) => {
    const id = next++;
    timers.set(id, { id, fn, args, delay, at: now + Math.max(0, delay) });
    return id;
  };
  globalThis.clearTimeout = (id) => { timers.delete(id); };
  Date.now = () => now;
  return clock;
}

/** A DOM event of `type` on `el` (bubbling, like the browser's input/click/keydown). */
export function fire(el, type, init = {}) {
  return el.dispatchEvent(new ShimEvent(type, { bubbles: true, ...init }));
}
