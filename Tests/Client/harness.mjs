// harness.mjs — loads the client's modules under Node, with a fake WebSocket.
//
// The client is plain `.js` ES modules with no package.json of its own, and Node before
// 20.19 (Debian's) takes such files for CommonJS. So each test file imports a fresh copy
// of Sources/BinderyServer/Client/bindery* in a temporary folder whose package.json says
// "module": the sources stay exactly what the browser gets.
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { test } from "node:test";
import "./dom-shim.mjs";

const here = dirname(fileURLToPath(import.meta.url));
export const REPO = join(here, "..", "..");
const CLIENT = join(REPO, "Sources", "BinderyServer", "Client");
export const GOLDEN = join(REPO, "Tests", "Golden");

let copy = null;
/** Imports the client module at `path` (relative to Sources/BinderyServer/Client), e.g. "bindery/client.js". */
export async function load(path) {
  if (!copy) {
    copy = mkdtempSync(join(tmpdir(), "bindery-client-"));
    cpSync(join(CLIENT, "bindery"), join(copy, "bindery"), { recursive: true });
    cpSync(join(CLIENT, "bindery.js"), join(copy, "bindery.js"));
    writeFileSync(join(copy, "package.json"), '{"type":"module"}\n');
    const folder = copy;
    process.on("exit", () => rmSync(folder, { recursive: true, force: true }));
  }
  return import(pathToFileURL(join(copy, path)).href);
}

/** The golden files named `prefix*.json`, as [name, text, parsed]. */
export function goldens(prefix) {
  return readdirSync(GOLDEN).filter((n) => n.startsWith(prefix) && n.endsWith(".json")).sort()
    .map((n) => { const text = readFileSync(join(GOLDEN, n), "utf8"); return [n, text, JSON.parse(text)]; });
}

/** The parsed golden file `name`. */
export const golden = (name) => JSON.parse(readFileSync(join(GOLDEN, name), "utf8"));

/**
 * A WebSocket the test drives: every one the client makes is in `FakeWebSocket.all`.
 * `open()`, `receive(msg)` (an object or text) and `drop(code, reason)` play the server;
 * `sent` holds what the client sent, parsed.
 */
export class FakeWebSocket {
  static CONNECTING = 0;
  static OPEN = 1;
  static CLOSING = 2;
  static CLOSED = 3;
  static all = [];
  static get last() { return FakeWebSocket.all.at(-1); }
  static reset() { FakeWebSocket.all = []; }

  constructor(url) {
    this.url = url;
    this.readyState = FakeWebSocket.CONNECTING;
    this.sentText = [];
    this.closedWith = null;
    FakeWebSocket.all.push(this);
  }
  get sent() { return this.sentText.map((t) => JSON.parse(t)); }
  send(text) {
    if (this.readyState !== FakeWebSocket.OPEN) throw new Error("send on a socket that is not open");
    this.sentText.push(text);
  }
  close(code = 1000, reason = "") {
    // The client closing: no close event comes back to a socket it has let go of.
    this.closedWith = { code, reason };
    this.readyState = FakeWebSocket.CLOSED;
  }
  open() { this.readyState = FakeWebSocket.OPEN; this.onopen?.({}); }
  receive(msg) { this.onmessage?.({ data: typeof msg === "string" ? msg : JSON.stringify(msg) }); }
  drop(code = 1006, reason = "") {
    this.readyState = FakeWebSocket.CLOSED;
    this.onclose?.({ code, reason, wasClean: code === 1000 });
  }
}
globalThis.WebSocket = FakeWebSocket;

/** A scene message (protocol 1) for `widgets`, as the server would send it. */
export function sceneMessage(widgets, extra = {}) {
  return { type: "scene", protocol: 1, session: "tok-1", scene: "test", title: "Test", resumed: false, widgets, ...extra };
}

/**
 * A render-mode client of the `Client` class given (loaded by the test), connected and
 * showing `widgets`: `el(id)` is a widget's element.
 */
export function startScene(Client, widgets) {
  const root = document.createElement("main");
  document.body.append(root);
  const client = new Client({ scene: "test", root, mode: "render", status: false });
  const ws = FakeWebSocket.last;
  ws.open();
  ws.receive(sceneMessage(widgets));
  return { client, ws, root, el: (id) => root.querySelector(`[data-widget="${id}"]`) };
}

/**
 * node:test's `test`, with `setup` before and `teardown` after each body: root-level
 * beforeEach/afterEach hooks are newer than Debian's Node.
 */
export function testWith(setup, teardown = () => {}) {
  return (name, fn) => test(name, async (t) => {
    setup();
    try { await fn(t); } finally { teardown(); }
  });
}
