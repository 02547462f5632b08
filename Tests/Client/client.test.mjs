// The seq/ack guard (bindery/client.js, bindery/patch.js): events carry rising seqs; a
// value the user is still editing is not overwritten by a server value that cannot know
// about the edit (no ack, or an older one); edits made offline are sent after a resume,
// and a fresh session gets what the user had entered.
import assert from "node:assert/strict";
import { resetDOM, installClock, fire } from "./dom-shim.mjs";
import { load, FakeWebSocket, sceneMessage, testWith } from "./harness.mjs";

const { Client } = await load("bindery/client.js");

const ECHO = [
  { id: "input", kind: "textField", props: { text: "", placeholder: "Type here", isEnabled: true } },
  { id: "output", kind: "label", props: { text: "" } },
];

let clock;
const test = testWith(() => { resetDOM(); FakeWebSocket.reset(); clock = installClock(); }, () => clock.restore());

function start(widgets = ECHO, scene = {}) {
  const root = document.createElement("main");
  document.body.append(root);
  const client = new Client({ scene: "echo", root, mode: "render", status: false });
  const ws = FakeWebSocket.last;
  ws.open();
  ws.receive(sceneMessage(widgets, scene));
  return { client, ws, root, el: (id) => root.querySelector(`[data-widget="${id}"]`) };
}

/** The user types `text` into `input` (the browser's input event after the value changes). */
function type(input, text) {
  input.focus();
  input.value = text;
  fire(input, "input");
}

const edits = (ws) => ws.sent.filter((m) => m.event === "editingChanged");

test("every event carries the next seq", () => {
  const { ws, el } = start();
  type(el("input"), "h");
  type(el("input"), "hi");
  assert.deepEqual(edits(ws).map((m) => [m.seq, m.value]), [[2, "h"], [3, "hi"]]); // seq 1: editingDidBegin
  assert.deepEqual(ws.sent[0], { type: "event", seq: 1, target: "input", event: "editingDidBegin" });
});

test("a patch without ack does not overwrite text the server has not acknowledged", () => {
  const { ws, el } = start();
  type(el("input"), "hello");
  ws.receive({ type: "patch", changes: [{ target: "input", prop: "text", value: "someone else" }, { target: "output", prop: "text", value: "X" }] });
  assert.equal(el("input").value, "hello", "the user's text stays");
  assert.equal(el("output").textContent, "X", "other widgets' changes apply");
});

test("an answer to an older seq does not overwrite a newer edit; the newest answer lets values in again", () => {
  const { ws, el } = start();
  type(el("input"), "he");
  type(el("input"), "hel");
  const [first, second] = edits(ws);
  ws.receive({ type: "patch", ack: first.seq, changes: [{ target: "input", prop: "text", value: "HE" }, { target: "output", prop: "text", value: "HE" }] });
  assert.equal(el("input").value, "hel", "the answer to 'he' is stale for the input");
  assert.equal(el("output").textContent, "HE");
  ws.receive({ type: "patch", ack: second.seq, changes: [{ target: "output", prop: "text", value: "HEL" }] });
  ws.receive({ type: "patch", changes: [{ target: "input", prop: "text", value: "from the server" }] });
  assert.equal(el("input").value, "from the server", "acknowledged: the server's value applies");
});

test("an ack never moves back", () => {
  const { client, ws, el } = start();
  type(el("input"), "a");
  const seq = edits(ws)[0].seq;
  ws.receive({ type: "patch", ack: seq, changes: [] });
  ws.receive({ type: "patch", ack: 1, changes: [] });
  assert.equal(client.lastAck, seq);
  assert.equal(client.hasUnackedEdit("input"), false);
});

test("store-unavailable is not an ack: the edit stays guarded", () => {
  const { client, ws, el } = start();
  type(el("input"), "kept");
  const seq = edits(ws)[0].seq;
  ws.receive({ type: "error", ack: seq, code: "store-unavailable", message: "the store is unreachable" });
  assert.equal(client.hasUnackedEdit("input"), true);
  ws.receive({ type: "patch", changes: [{ target: "input", prop: "text", value: "" }] });
  assert.equal(el("input").value, "kept");
});

test("a debounced edit still waiting guards the value, and goes out as one event", () => {
  const { client, ws, el } = start();
  el("input").dataset.debounce = "300";
  type(el("input"), "a");
  type(el("input"), "ab");
  assert.equal(edits(ws).length, 0);
  assert.equal(client.hasUnackedEdit("input"), true);
  ws.receive({ type: "patch", changes: [{ target: "input", prop: "text", value: "" }] });
  assert.equal(el("input").value, "ab");
  clock.tick(300);
  assert.deepEqual(edits(ws).map((m) => m.value), ["ab"]);
});

test("what was typed while disconnected is sent after the resumed scene, and stays in the field", () => {
  const { ws, el } = start();
  ws.drop(1006);
  type(el("input"), "offline text");
  clock.tick(250);
  const again = FakeWebSocket.last;
  assert.notEqual(again, ws);
  assert.equal(new URL(again.url).searchParams.get("session"), "tok-1");
  again.open();
  again.receive(sceneMessage(ECHO, { resumed: true }));
  assert.equal(el("input").value, "offline text", "the resumed scene's empty text does not win");
  const sent = edits(again);
  assert.equal(sent.length, 1);
  assert.equal(sent[0].value, "offline text");
});

test("a fresh session after a restart gets what the user had entered (form recovery)", () => {
  const { ws, el } = start();
  type(el("input"), "typed before");
  ws.receive({ type: "patch", ack: edits(ws)[0].seq, changes: [{ target: "output", prop: "text", value: "TYPED BEFORE" }] });
  ws.drop(1006);
  clock.tick(250);
  const again = FakeWebSocket.last;
  again.open();
  again.receive(sceneMessage(ECHO, { session: "tok-2", resumed: false }));
  assert.equal(el("input").value, "typed before");
  assert.deepEqual(edits(again).map((m) => m.value), ["typed before"]);
});

test("while not connected a tap says it was not sent, a focus report does not", () => {
  const widgets = [...ECHO, { id: "go", kind: "button", props: { title: "Go", isEnabled: true } }];
  const { client, ws, el } = start(widgets);
  ws.drop(1006);
  const toasts = () => document.querySelectorAll(".bd-toast").length;
  el("input").focus();
  fire(el("input"), "focus");
  assert.equal(client.send("input", "editingDidBegin"), 0);
  assert.equal(client.send("input", "editingDidEnd"), 0);
  assert.equal(toasts(), 0, "clicking into a field while reconnecting is no false alarm");
  assert.equal(client.send("go", "touchUpInside"), 0);
  assert.equal(toasts(), 1, "a tap that did not go out is said");
});

test("a refused address says there is no session, not that one ended", () => {
  const root = document.createElement("main");
  const status = document.createElement("div");
  document.body.append(root, status);
  new Client({ scene: "team", root, mode: "render", status });
  const ws = FakeWebSocket.last;
  ws.open();
  ws.receive({ type: "error", code: "bad-parameter", message: "parameter 'member': nobody goes by 'x'" });
  ws.drop(4400);
  assert.equal(document.documentElement.dataset.binderyState, "ended", "the page has stopped");
  assert.equal(status.dataset.state, "refused");
  assert.match(status.textContent, /^No session/);
  assert.doesNotMatch(status.textContent, /Session ended/);
  assert.equal(status.querySelectorAll("button").length, 0, "no 'Start a new session' for an address that cannot open");
  assert.match(root.textContent, /This page cannot open with that address: parameter 'member'/);
});

test("events out while not connected are not sent", () => {
  const widgets = [{ id: "go", kind: "button", props: { title: "Go", isEnabled: true } }];
  const { client, ws } = start(widgets);
  ws.drop(1006);
  assert.equal(client.send("go", "touchUpInside"), 0);
  assert.equal(ws.sent.length, 0);
});

test("developer mode names every control without an accessible name, and only those", () => {
  const widgets = [
    { id: "go", kind: "button", props: { title: "Go", isEnabled: true } },
    { id: "blank", kind: "button", props: { title: "", isEnabled: true } },
    { id: "named", kind: "button", props: { title: "", accessibilityLabel: "Close", isEnabled: true } },
    { id: "wifi", kind: "switch", props: { isOn: false, isEnabled: true } },
    { id: "input", kind: "textField", props: { text: "", placeholder: "Type here", isEnabled: true } },
  ];
  const warnings = [];
  const warn = console.warn;
  console.warn = (message) => warnings.push(message);
  try {
    const root = document.createElement("main");
    document.body.append(root);
    new Client({ scene: "form", root, mode: "render", status: false, dev: true });
    FakeWebSocket.last.open();
    FakeWebSocket.last.receive(sceneMessage(widgets));
  } finally {
    console.warn = warn;
  }
  assert.equal(warnings.length, 2, warnings.join("\n"));
  assert.match(warnings[0], /button 'blank' has no accessible name/);
  assert.match(warnings[1], /switch 'wifi' has no accessible name/);
  const toast = document.querySelector(".bd-toast");
  assert.match(toast?.textContent ?? "", /2 controls have no accessible name: 'blank', 'wifi'/);
});

test("outside developer mode nothing is said about accessible names", () => {
  const warnings = [];
  const warn = console.warn;
  console.warn = (message) => warnings.push(message);
  try {
    start([{ id: "blank", kind: "button", props: { title: "", isEnabled: true } }]);
  } finally {
    console.warn = warn;
  }
  assert.deepEqual(warnings, []);
});

test("an error that answers an upload's step is shown by the upload, not as a toast too", () => {
  const { client, ws } = start();
  client.ownedAcks.add(7); // what FileUpload.request does for each of its steps
  ws.receive({ type: "error", ack: 7, code: "upload-too-large", message: "'big.bin' is 2 MiB" });
  assert.equal(document.querySelectorAll(".bd-toast").length, 0);
  assert.equal(client.ownedAcks.has(7), false);
  ws.receive({ type: "error", ack: 8, code: "unknown-target", message: "no widget 'x'" });
  assert.equal(document.querySelectorAll(".bd-toast").length, 1, "other errors still say so");
});
