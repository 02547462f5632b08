// The patch applier (bindery/patch.js, bindery/presentation.js): values onto elements,
// list ops onto the cached rows, and a patch's `removed` then `added` then `changes`.
import assert from "node:assert/strict";
import { resetDOM } from "./dom-shim.mjs";
import { load, FakeWebSocket, testWith, startScene } from "./harness.mjs";

const { Client } = await load("bindery/client.js");
const { applyOpToArray } = await load("bindery/patch.js");

const test = testWith(() => { resetDOM(); FakeWebSocket.reset(); });

const start = (widgets) => startScene(Client, widgets);

const WIDGETS = [
  { id: "canvas", kind: "view", props: { backgroundColor: null, isHidden: false, alpha: 1 } },
  { id: "title", kind: "label", props: { text: "Hello", textColor: "#000000ff" } },
  { id: "go", kind: "button", props: { title: "Go", isEnabled: true } },
  { id: "volume", kind: "slider", props: { minimumValue: 0, maximumValue: 10, value: 5 } },
];

test("a scene's values are on its elements", () => {
  const { el } = start(WIDGETS);
  assert.equal(el("title").textContent, "Hello");
  assert.equal(el("go").textContent, "Go");
  assert.equal(el("go").disabled, false);
  assert.equal(el("volume").max, 10);
  assert.equal(el("volume").value, 5);
});

test("a patch's values reach their widgets' elements and cached props", () => {
  const { client, ws, el } = start(WIDGETS);
  ws.receive({ type: "patch", changes: [
    { target: "canvas", prop: "backgroundColor", value: "#404040ff" },
    { target: "title", prop: "text", value: "Bye" },
    { target: "go", prop: "isEnabled", value: false },
    { target: "canvas", prop: "alpha", value: 0.5 },
    { target: "title", prop: "isHidden", value: true },
  ] });
  assert.equal(el("canvas").style.backgroundColor, "rgb(64 64 64 / 1)");
  assert.equal(el("canvas").style.opacity, "0.5");
  assert.equal(el("title").textContent, "Bye");
  assert.equal(el("title").closest("[data-bindery-field]").hidden, true);
  assert.equal(el("go").disabled, true);
  assert.equal(el("go").hasAttribute("aria-disabled"), true);
  assert.equal(client.widgets.get("title").props.text, "Bye");
});

test("changes to widgets the client does not have are skipped, the rest applies", () => {
  const { ws, el } = start(WIDGETS);
  assert.doesNotThrow(() => ws.receive({ type: "patch", changes: [
    { target: "nope", prop: "text", value: "x" },
    { target: "title", prop: "text", value: "still applied" },
  ] }));
  assert.equal(el("title").textContent, "still applied");
});

test("removed widgets lose their fields; added ones are rendered, bound and take their props", () => {
  const { client, ws, el, root } = start(WIDGETS);
  ws.receive({
    type: "patch", ack: 0, removed: ["go"],
    added: [{ id: "extra", kind: "label", props: { text: "new here" } }],
    changes: [{ target: "extra", prop: "textColor", value: "#ff0000ff" }],
  });
  assert.equal(el("go"), null);
  assert.equal(client.widgets.has("go"), false);
  assert.equal(client.elements.has("go"), false);
  const extra = el("extra");
  assert.ok(extra, "the added widget has an element");
  assert.equal(extra.textContent, "new here");
  assert.equal(extra.style.color, "rgb(255 0 0 / 1)", "a change in the same patch reaches the added widget");
  assert.equal(extra.closest("form.bd-form"), root.querySelector("form.bd-form"), "appended to the form");
  // Removed first, then added: a widget removed and added again in one patch is shown once.
  ws.receive({ type: "patch", removed: ["extra"], added: [{ id: "extra", kind: "label", props: { text: "again" } }], changes: [] });
  assert.equal(root.querySelectorAll('[data-widget="extra"]').length, 1);
  assert.equal(el("extra").textContent, "again");
});

test("an added widget whose id is already shown replaces it (PROTOCOL.md), without a removed", () => {
  const { client, ws, el, root } = start(WIDGETS);
  ws.receive({ type: "patch", added: [{ id: "extra", kind: "label", props: { text: "first" } }], changes: [] });
  ws.receive({ type: "patch", added: [{ id: "extra", kind: "label", props: { text: "second" } }], changes: [] });
  assert.equal(root.querySelectorAll('[data-widget="extra"]').length, 1, "one element, not two");
  assert.equal(el("extra").textContent, "second");
  assert.equal(client.elements.get("extra").length, 1, "one binding");
  // A widget of the scene itself, re-sent: replaced in place of a second copy.
  ws.receive({ type: "patch", added: [{ id: "title", kind: "label", props: { text: "renewed" } }], changes: [] });
  assert.equal(root.querySelectorAll('[data-widget="title"]').length, 1);
  assert.equal(el("title").textContent, "renewed");
});

test("added widgets that are controls report events", () => {
  const { ws, el } = start(WIDGETS);
  ws.receive({ type: "patch", added: [{ id: "ok", kind: "button", props: { title: "OK", isEnabled: true } }], changes: [] });
  el("ok").click();
  assert.deepEqual(ws.sent.at(-1), { type: "event", seq: 1, target: "ok", event: "touchUpInside" });
});

test("list ops on cached rows: insert, remove, update, move (to counted after removing)", () => {
  const ids = (rows) => rows.map((r) => r.id);
  const rows = [{ id: "a" }, { id: "b" }, { id: "c" }];
  applyOpToArray(rows, { op: "insert", index: 1, rows: [{ id: "x" }, { id: "y" }] });
  assert.deepEqual(ids(rows), ["a", "x", "y", "b", "c"]);
  applyOpToArray(rows, { op: "remove", index: 1, count: 2 });
  assert.deepEqual(ids(rows), ["a", "b", "c"]);
  applyOpToArray(rows, { op: "update", index: 1, row: { id: "b", text: "B" } });
  assert.deepEqual(rows[1], { id: "b", text: "B" });
  applyOpToArray(rows, { op: "move", from: 0, to: 2 });
  assert.deepEqual(ids(rows), ["b", "c", "a"]);
  applyOpToArray(rows, { op: "move", from: 2, to: 0 });
  assert.deepEqual(ids(rows), ["a", "b", "c"]);
  applyOpToArray(rows, { op: "remove", index: 2 });
  assert.deepEqual(ids(rows), ["a", "b"], "count defaults to 1");
});
