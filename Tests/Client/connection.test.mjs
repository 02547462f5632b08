// The connection (bindery/connection.js): the socket's URL, resuming by token, the
// reconnect backoff, pagehide / pageshow, and the close codes that end or move a session.
import assert from "node:assert/strict";
import { resetDOM, installClock, ShimEvent } from "./dom-shim.mjs";
import { load, FakeWebSocket, testWith } from "./harness.mjs";

const { Connection, BACKOFF_FIRST_MS, BACKOFF_MAX_MS } = await load("bindery/connection.js");

let clock;
let states;
let messages;
const realRandom = Math.random;

const test = testWith(() => {
  resetDOM({ href: "http://localhost:8080/scene/echo" });
  FakeWebSocket.reset();
  clock = installClock();
  states = [];
  messages = [];
  Math.random = () => 1; // the jitter's top: delays are the backoff's exact steps
}, () => {
  clock.restore();
  Math.random = realRandom;
});

function connect(options = {}) {
  const conn = new Connection({
    scene: "echo",
    onMessage: (m) => messages.push(m),
    onStatus: (state, info) => states.push({ state, ...info }),
    ...options,
  });
  conn.open();
  return conn;
}

/** The server side of a handshake: open, then the first scene with token `session`. */
function handshake(ws, session = "tok-A", resumed = false) {
  ws.open();
  ws.receive({ type: "scene", protocol: 1, session, scene: "echo", title: "Echo", resumed, widgets: [] });
}

test("a new session's URL names the scene, its parameters, the screen and the row window", () => {
  connect({ parameters: { id: "42" }, screenPath: () => "/chen-wei" });
  const url = new URL(FakeWebSocket.last.url);
  assert.equal(url.protocol, "ws:");
  assert.equal(url.host, "localhost:8080");
  assert.equal(url.pathname, "/ws/echo");
  assert.equal(url.searchParams.get("id"), "42");
  assert.equal(url.searchParams.get("screen"), "/chen-wei");
  assert.equal(url.searchParams.get("rows"), "200");
  assert.equal(url.searchParams.has("session"), false);
  assert.equal(states[0].state, "connecting");
});

test("an https page connects with wss", () => {
  resetDOM({ href: "https://example.com/scene/echo" });
  connect();
  assert.ok(FakeWebSocket.last.url.startsWith("wss://example.com/ws/echo?"));
});

test("the first scene makes the connection live and keeps its token for a reload", () => {
  const conn = connect();
  assert.equal(conn.connected, false);
  assert.equal(conn.send({ type: "event" }), false, "nothing is sent before the scene");
  handshake(FakeWebSocket.last, "tok-A");
  assert.equal(conn.connected, true);
  assert.equal(states.at(-1).state, "connected");
  assert.equal(sessionStorage.getItem("bindery:session:echo"), "tok-A");
  assert.equal(messages[0].type, "scene");
  // A reload: a new Connection on the same page resumes by token.
  connect();
  assert.equal(new URL(FakeWebSocket.last.url).searchParams.get("session"), "tok-A");
});

test("tokens are kept per scene and parameters", () => {
  connect({ parameters: { id: "1" } });
  handshake(FakeWebSocket.last, "tok-1");
  assert.equal(sessionStorage.getItem("bindery:session:echo?id=1"), "tok-1");
  connect({ parameters: { id: "2" } });
  assert.equal(new URL(FakeWebSocket.last.url).searchParams.has("session"), false);
});

test("a dropped connection reconnects with exponential backoff up to the cap, resuming by token", () => {
  connect();
  handshake(FakeWebSocket.last, "tok-A");
  const delays = [];
  const shown = [];
  for (let i = 0; i < 7; i++) {
    FakeWebSocket.last.drop(1006);
    shown.push(states.at(-1).state);
    const [timer] = clock.pending();
    delays.push(timer.delay);
    const before = FakeWebSocket.all.length;
    clock.tick(timer.delay - 1);
    assert.equal(FakeWebSocket.all.length, before, "not before the delay");
    clock.tick(1);
    assert.equal(FakeWebSocket.all.length, before + 1, "a new socket once it is up");
    assert.equal(new URL(FakeWebSocket.last.url).searchParams.get("session"), "tok-A");
  }
  assert.deepEqual(delays, [BACKOFF_FIRST_MS, 500, 1000, 2000, 4000, BACKOFF_MAX_MS, BACKOFF_MAX_MS]);
  // Reconnecting for the first failures, offline from the fourth on (still trying).
  assert.deepEqual(shown, ["reconnecting", "reconnecting", "reconnecting", "offline", "offline", "offline", "offline"]);
  // A resumed scene resets the backoff.
  handshake(FakeWebSocket.last, "tok-A", true);
  FakeWebSocket.last.drop(1006);
  assert.equal(clock.pending()[0].delay, BACKOFF_FIRST_MS);
});

test("the jitter only shortens a delay, to half at most", () => {
  Math.random = () => 0;
  connect();
  FakeWebSocket.last.drop(1006);
  assert.equal(clock.pending()[0].delay, BACKOFF_FIRST_MS / 2);
});

test("pagehide closes the socket and stops retrying; pageshow resumes the same session", () => {
  const conn = connect();
  const ws = FakeWebSocket.last;
  handshake(ws, "tok-A");
  window.dispatchEvent(new ShimEvent("pagehide", { persisted: true }));
  assert.deepEqual(ws.closedWith, { code: 1000, reason: "page hidden" });
  assert.equal(conn.connected, false);
  ws.drop(1000); // the close event of a socket the client let go of changes nothing
  assert.equal(clock.pending().length, 0, "no retry while hidden");
  window.dispatchEvent(new ShimEvent("online"));
  assert.equal(FakeWebSocket.all.length, 1, "not even when the network comes back");
  window.dispatchEvent(new ShimEvent("pageshow", { persisted: true }));
  assert.equal(FakeWebSocket.all.length, 2);
  assert.equal(new URL(FakeWebSocket.last.url).searchParams.get("session"), "tok-A");
});

test("the network coming back retries at once instead of waiting for the backoff", () => {
  connect();
  for (let i = 0; i < 5; i++) { FakeWebSocket.last.drop(1006); clock.tick(clock.pending()[0].delay); }
  FakeWebSocket.last.drop(1006);
  assert.ok(clock.pending()[0].delay >= 4000);
  const before = FakeWebSocket.all.length;
  window.dispatchEvent(new ShimEvent("online"));
  assert.equal(FakeWebSocket.all.length, before + 1);
});

test("bye ends the session: the token is forgotten and nothing reconnects", () => {
  connect();
  handshake(FakeWebSocket.last, "tok-A");
  FakeWebSocket.last.receive({ type: "bye", reason: "deleted" });
  FakeWebSocket.last.drop(1000);
  assert.equal(states.at(-1).state, "ended");
  assert.equal(sessionStorage.getItem("bindery:session:echo"), null);
  assert.equal(clock.pending().length, 0);
  assert.equal(FakeWebSocket.all.length, 1);
});

test("bye shutdown and 1001 resume at once, with the token", () => {
  connect();
  handshake(FakeWebSocket.last, "tok-A");
  FakeWebSocket.last.receive({ type: "bye", reason: "shutdown" });
  FakeWebSocket.last.drop(1001);
  const [timer] = clock.pending();
  assert.ok(timer.delay <= 100, `resumes within 100 ms, not after ${timer.delay}`);
  clock.tick(100);
  assert.equal(new URL(FakeWebSocket.last.url).searchParams.get("session"), "tok-A");
});

test("4001 'session moved' resumes at once; 4001 'session taken over' ends without a fight", () => {
  connect();
  handshake(FakeWebSocket.last, "tok-A");
  FakeWebSocket.last.drop(4001, "session moved");
  clock.tick(100);
  assert.equal(FakeWebSocket.all.length, 2);
  handshake(FakeWebSocket.last, "tok-A", true);
  FakeWebSocket.last.drop(4001, "session taken over");
  assert.equal(states.at(-1).state, "ended");
  assert.equal(states.at(-1).takenOver, true);
  clock.tick(60_000);
  assert.equal(FakeWebSocket.all.length, 2);
  assert.equal(sessionStorage.getItem("bindery:session:echo"), "tok-A", "the token stays: reclaim() may take it back");
});

test("a refused parameter (error bad-parameter, then 4400) ends with its message and no retry", () => {
  connect({ parameters: { id: "abc" } });
  FakeWebSocket.last.open();
  FakeWebSocket.last.receive({ type: "error", code: "bad-parameter", message: "parameter 'id': expected an integer, got 'abc'" });
  FakeWebSocket.last.drop(4400);
  const last = states.at(-1);
  assert.equal(last.state, "ended");
  assert.equal(last.badParameter, true);
  assert.equal(last.detail, "parameter 'id': expected an integer, got 'abc'");
  assert.equal(messages.length, 0, "the refusal is not handed on as a message");
  clock.tick(60_000);
  assert.equal(FakeWebSocket.all.length, 1);
});

test("send writes one JSON text message while live", () => {
  const conn = connect();
  handshake(FakeWebSocket.last);
  assert.equal(conn.send({ type: "resync", seq: 1 }), true);
  assert.deepEqual(FakeWebSocket.last.sentText, ['{"type":"resync","seq":1}']);
});
