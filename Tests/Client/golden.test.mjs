// The golden wire files (Tests/Golden, PROTOCOL.md's examples): the client takes every
// server message in them, applying what it says, and what it sends has the shape of the
// client messages in them. The Swift tests read the same files against the server.
import { test } from "node:test";
import assert from "node:assert/strict";
import { resetDOM, fire } from "./dom-shim.mjs";
import { load, FakeWebSocket, goldens, golden, sceneMessage } from "./harness.mjs";

const { Client } = await load("bindery/client.js");

const settle = () => new Promise((resolve) => setImmediate(resolve)); // renderers finish in microtasks
const row = (id, section, extra = {}) => ({ id, canMove: true, section, text: id, ...extra });

// One scene with a widget for every target the golden messages name (ids as in PROTOCOL.md).
const FIXTURE = [
  { id: "canvas", kind: "view", props: { backgroundColor: null } },
  { id: "viewers", kind: "label", props: { text: "" } },
  { id: "repoList", kind: "listView", props: { items: Array.from({ length: 20 }, (_, i) => ({ id: `repo-${i + 1}`, author: `author-${i + 1}`, name: `repo-${i + 1}` })) } },
  { id: "input", kind: "textField", props: { text: "" } },
  { id: "output", kind: "label", props: { text: "" } },
  { id: "textField", kind: "textField", props: { text: "" } },
  { id: "whiteSlider", kind: "slider", props: { minimumValue: 0, maximumValue: 1, value: 0.5 } },
  { id: "resetButton", kind: "button", props: { title: "Reset", isEnabled: true } },
  { id: "pets", kind: "tableView", props: {
    allowsSelection: true, isEditing: false, selectedRows: [], style: "plain",
    items: [row("cat-0", "Cats"), row("cat-1", "Cats"), row("Rex", "Dogs"), row("Fido", "Dogs")],
    sections: [{ id: "Cats", header: "Cats" }, { id: "Dogs", header: "Dogs" }] } },
  { id: "selected", kind: "label", props: { text: "" } },
  { id: "greeting", kind: "label", props: { text: "" } },
  { id: "navigation", kind: "navigationController", props: { screens: [
    { id: "screen-1", title: "Repos", widgets: [] },
    { id: "screen-2", title: "Stars", backTitle: "Repos", widgets: ["screen-2.stars"] }] } },
  { id: "screen-2.stars", kind: "label", props: { text: "★ 12" } },
  { id: "picker", kind: "documentPicker", props: { allowedContentTypes: [], allowsMultipleSelection: false, maxFileSize: null, isEnabled: true } },
  { id: "status", kind: "label", props: { text: "" } },
  { id: "progress", kind: "progressView", props: { progress: 0 } },
  { id: "files", kind: "tableView", props: { items: [], sections: [{ id: "0" }], selectedRows: [] } },
  { id: "load", kind: "chartView", props: {
    series: [{ id: "cpu", kind: "line", title: "CPU" }],
    points: Array.from({ length: 40 }, (_, i) => ({ id: `cpu/${i}`, series: "cpu", x: i, y: 0.25 })),
    title: "Load", xAxisTitle: null, yAxisTitle: null, yMin: null, yMax: null, xTickFormat: "auto", yTickFormat: "auto", showsLegend: true } },
  { id: "alertController-1", kind: "alertController", props: {
    title: "Your name", message: null, preferredStyle: "alert", textFields: ["textField-2"],
    actions: [{ id: "0", title: "Cancel", style: "cancel" }, { id: "1", title: "OK", style: "default" }] } },
  { id: "textField-2", kind: "textField", props: { text: "" } },
  { id: "tapGestureRecognizer-3", kind: "tapGestureRecognizer", props: { view: "canvas", isEnabled: true, numberOfTapsRequired: 1 } },
];

let client;
let ws;
let root;
const el = (id) => root.querySelector(`[data-widget="${CSS.escape(id)}"]`);
const errors = [];

async function start(widgets = FIXTURE) {
  resetDOM();
  FakeWebSocket.reset();
  root = document.createElement("main");
  document.body.append(root);
  // History off: the navigation bar's Back sends `back` itself (the shim has no popstate).
  client = new Client({ scene: "golden", root, mode: "render", status: false, history: false, onError: (m) => errors.push(m) });
  ws = FakeWebSocket.last;
  ws.open();
  ws.receive(sceneMessage(widgets));
  await settle();
}

test("the echo scene as PROTOCOL.md shows it renders, captioned by its layout", async () => {
  await start([]);
  const scene = golden("server-scene-echo.json");
  ws.receive(scene);
  assert.equal(el("input").placeholder, "Type here");
  assert.equal(el("output").textContent, "");
  const caption = el("output").closest("[data-bindery-field]").querySelector(".bd-caption");
  assert.equal(caption.textContent, "In capitals");
  assert.deepEqual([...client.widgets.keys()], ["input", "output"]);
});

test("every server-*.json goes through the client's message handling and does what it says", async () => {
  await start();
  const files = goldens("server-").filter(([name]) => name !== "server-scene-echo.json" && name !== "server-bye-deleted.json");
  assert.ok(files.length >= 15, `golden files found: ${files.length}`);
  for (const [name, text, msg] of files) {
    const before = new Map([...client.widgets].map(([id, w]) => [id, structuredClone(w.props)]));
    assert.doesNotThrow(() => ws.receive(text), name);
    await settle();
    if (msg.type === "error") {
      assert.deepEqual(errors.at(-1), msg, `${name}: handed to onError`);
      continue;
    }
    for (const id of msg.removed ?? []) assert.equal(client.widgets.has(id), false, `${name}: ${id} removed`);
    for (const c of msg.changes ?? []) {
      const props = client.widgets.get(c.target)?.props;
      assert.ok(props, `${name}: the fixture has ${c.target}`);
      if ("value" in c) {
        assert.deepEqual(props[c.prop], c.value, `${name}: ${c.target}.${c.prop}`);
      } else {
        const expected = structuredClone(before.get(c.target)[c.prop]);
        for (const op of c.ops) {
          if (op.op === "insert") expected.splice(op.index, 0, ...op.rows);
          if (op.op === "remove") expected.splice(op.index, op.count);
          if (op.op === "update") expected[op.index] = op.row;
          if (op.op === "move") expected.splice(op.to, 0, ...expected.splice(op.from, 1));
        }
        assert.deepEqual(props[c.prop], expected, `${name}: ${c.target}.${c.prop} after its ops`);
      }
    }
  }
  assert.equal(ws.sent.filter((m) => m.type === "resync").length, 0, "every op fitted: no resync");
  // A few effects on the page itself.
  assert.equal(el("canvas").style.backgroundColor, "rgb(64 64 64 / 1)");
  assert.equal(el("viewers").textContent, "3 online");
  assert.equal(el("repoList").querySelector('[data-row="repo-21"]').dataset.row, "repo-21");
  assert.equal(el("progress").value, 1);
  assert.equal(el("alertController-1"), null);
  assert.equal(el("screen-2.stars"), null);
  // bye: the session is over and its token forgotten.
  ws.receive(golden("server-bye-deleted.json"));
  assert.equal(sessionStorage.getItem("bindery:session:golden"), null);
  assert.equal(client.state, "ended");
});

/** Sets the client's seq so the next message sent carries `seq`, runs `act`, returns what went out. */
function sentBy(seq, act) {
  client.seq = seq - 1;
  const count = ws.sentText.length;
  act();
  const out = ws.sent.slice(count);
  assert.equal(out.length, 1, `one message sent, not ${JSON.stringify(out)}`);
  return out[0];
}

// How a person makes each event the golden files show, on the fixture's widgets.
const ACTIONS = {
  editingChanged: (m) => () => { const input = el(m.target); input.value = m.value; fire(input, "input"); },
  valueChanged: (m) => () => { const slider = el(m.target); slider.value = String(m.value); fire(slider, "input"); },
  touchUpInside: (m) => () => el(m.target).click(),
  itemSelected: (m) => () => el(m.target).querySelector(`[data-row="${m.row}"]`).click(),
  itemMoved: (m) => () => {
    // Dragged onto the lower half of the destination section's row toIndex - 1.
    const table = el(m.target);
    const onto = [...table.querySelectorAll("[data-row]")].filter((r) => client.widgets.get(m.target).props.items
      .find((x) => x.id === r.dataset.row).section === m.toSection)[m.toIndex - 1];
    const dataTransfer = { setData() {}, effectAllowed: "" };
    fire(table.querySelector(`[data-row="${m.row}"]`), "dragstart", { dataTransfer });
    fire(onto, "drop", { dataTransfer, clientY: 1 });
  },
  actionTriggered: (m) => () => {
    m.value.forEach((text, i) => { el(client.widgets.get(m.target).props.textFields[i]).value = text; });
    el(m.target).querySelector(`.bd-alert-action[data-action="${m.action}"]`).click();
  },
  back: (m) => () => el(m.target).querySelector(".bd-nav-back").click(),
  recognized: (m) => () => el(client.widgets.get(m.target).props.view).click(),
};

// Examples no control of the page sends: typed by hand in PROTOCOL.md's curl and websocat
// sessions, or naming what is not there (a row the table does not have, a widget that is
// not a control, a widget that does not exist). Their shape is checked through send().
const BY_HAND = new Set([
  "client-event-itemSelected-unknownRow.json", "client-event-touchUpInside-label.json",
  "client-event-touchUpInside-unknownTarget.json",
]);

test("the client's events have the shape of every client-event-*.json", async () => {
  const files = goldens("client-event-");
  assert.ok(files.length >= 10);
  let byDOM = 0;
  for (const [name, , expected] of files) {
    await start();
    if (name === "client-event-itemMoved.json") {
      ws.receive({ type: "patch", changes: [{ target: "pets", prop: "isEditing", value: true }] });
    }
    if (expected.event === "editingChanged") el(expected.target).focus(); // its editingDidBegin goes first
    let sent;
    if (BY_HAND.has(name)) {
      const { type, seq, target, event, value, ...fields } = expected;
      sent = sentBy(seq, () => client.send(target, event, value, fields));
    } else {
      const act = ACTIONS[expected.event];
      assert.ok(act, `${name}: no way to make '${expected.event}' here`);
      sent = sentBy(expected.seq, act(expected));
      byDOM += 1;
    }
    assert.deepEqual(sent, expected, name);
  }
  assert.ok(byDOM >= 10, `events made through the page: ${byDOM}`);
});

test("resync, rows and bye go out as client-resync.json, client-rows.json and client-bye.json show", async () => {
  await start();
  const resync = golden("client-resync.json");
  assert.deepEqual(sentBy(resync.seq, () => client.resync()), resync);
  const rows = golden("client-rows.json");
  assert.deepEqual(sentBy(rows.seq, () => client.requestRows(rows.target, rows.from, rows.to)), rows);
  assert.deepEqual(sentBy(client.seq + 1, () => client.end()), golden("client-bye.json"));
});

test("the golden text is sent as written: one compact JSON object per message", async () => {
  await start();
  const expected = golden("client-event-touchUpInside.json");
  sentBy(expected.seq, () => el(expected.target).click());
  assert.equal(ws.sentText.at(-1), JSON.stringify(expected));
});
