// Keyed list operations: a listView's rows (renderers/listView.js) and a tableView's
// (renderers/tableView.js): insert, remove, update and move by index over rows keyed by
// id, the DOM kept in the rows' order; ops that do not fit ask for a resync; a windowed
// table fills its holes from `rows` answers.
import assert from "node:assert/strict";
import { resetDOM, installClock, ShimEvent } from "./dom-shim.mjs";
import { load, FakeWebSocket, testWith, startScene } from "./harness.mjs";

const { Client } = await load("bindery/client.js");

let clock;
const test = testWith(() => { resetDOM(); FakeWebSocket.reset(); clock = installClock(); }, () => clock.restore());

const start = (widgets) => startScene(Client, widgets);

const repo = (n) => ({ id: `repo-${n}`, author: `author-${n}`, name: `repo-${n}` });
const listKeys = (list) => [...list.children].filter((c) => c.dataset.row !== undefined).map((c) => c.dataset.row);
const ops = (target, list) => ({ type: "patch", changes: [{ target, prop: "items", ops: list }] });

test("a listView shows its rows in order, titled by name", () => {
  const { el } = start([{ id: "repos", kind: "listView", props: { items: [repo(1), repo(2)] } }]);
  assert.deepEqual(listKeys(el("repos")), ["repo-1", "repo-2"]);
  assert.equal(el("repos").querySelector('[data-row="repo-1"] .bd-row-title').textContent, "repo-1");
  assert.equal(el("repos").querySelector('[data-row="repo-1"] [data-field="author"]').textContent, "author-1");
});

test("listView keyed ops: insert, update, move and remove by key", () => {
  const { client, ws, el } = start([{ id: "repos", kind: "listView", props: { items: [1, 2, 3].map(repo) } }]);
  const list = el("repos");
  const second = list.querySelector('[data-row="repo-2"]');
  ws.receive(ops("repos", [{ op: "insert", index: 1, rows: [repo(9)] }]));
  assert.deepEqual(listKeys(list), ["repo-1", "repo-9", "repo-2", "repo-3"]);
  assert.equal(list.querySelector('[data-row="repo-2"]'), second, "rows that stay keep their element");
  ws.receive(ops("repos", [{ op: "update", index: 2, row: { id: "repo-2", author: "someone", name: "renamed" } }]));
  assert.equal(list.querySelector('[data-row="repo-2"] .bd-row-title').textContent, "renamed");
  ws.receive(ops("repos", [{ op: "move", from: 0, to: 3 }]));
  assert.deepEqual(listKeys(list), ["repo-9", "repo-2", "repo-3", "repo-1"]);
  ws.receive(ops("repos", [{ op: "remove", index: 1, count: 2 }]));
  assert.deepEqual(listKeys(list), ["repo-9", "repo-1"]);
  assert.deepEqual(client.widgets.get("repos").props.items.map((r) => r.id), ["repo-9", "repo-1"], "the cache follows");
  assert.equal(ws.sent.filter((m) => m.type === "resync").length, 0);
});

test("several ops in one change apply in order", () => {
  const { ws, el } = start([{ id: "repos", kind: "listView", props: { items: [1, 2, 3].map(repo) } }]);
  ws.receive(ops("repos", [{ op: "remove", index: 0, count: 1 }, { op: "insert", index: 2, rows: [repo(4)] }, { op: "move", from: 2, to: 0 }]));
  assert.deepEqual(listKeys(el("repos")), ["repo-4", "repo-2", "repo-3"]);
});

test("an op that does not fit the rows shown asks for a resync", () => {
  const { ws } = start([{ id: "repos", kind: "listView", props: { items: [repo(1)] } }]);
  ws.receive(ops("repos", [{ op: "remove", index: 5, count: 1 }]));
  const resyncs = ws.sent.filter((m) => m.type === "resync");
  assert.equal(resyncs.length, 1);
  assert.equal(typeof resyncs[0].seq, "number");
});

test("an emptied list says so, and the note goes with the next row", () => {
  const { ws, el } = start([{ id: "repos", kind: "listView", props: { items: [repo(1)] } }]);
  ws.receive(ops("repos", [{ op: "remove", index: 0, count: 1 }]));
  assert.ok(el("repos").querySelector(".bd-list-empty"));
  ws.receive(ops("repos", [{ op: "insert", index: 0, rows: [repo(2)] }]));
  assert.equal(el("repos").querySelector(".bd-list-empty"), null);
  assert.deepEqual(listKeys(el("repos")), ["repo-2"]);
});

// ---- tables -----------------------------------------------------------------------

const pet = (id, section, extra = {}) => ({ id, canMove: true, section, text: id, ...extra });
const PETS = {
  id: "pets", kind: "tableView",
  props: {
    allowsMultipleSelection: false, allowsSelection: true, allowsSelectionDuringEditing: false, isEditing: false,
    items: [pet("cat-0", "Cats"), pet("cat-1", "Cats"), pet("Rex", "Dogs"), pet("Fido", "Dogs")],
    sections: [{ id: "Cats", header: "Cats" }, { id: "Dogs", header: "Dogs" }], selectedRows: [], style: "plain",
  },
};
const tableKeys = (table) => [...table.querySelectorAll("[data-row]")].map((r) => r.dataset.row);
const headers = (table) => [...table.querySelectorAll(".bd-section-header")].map((h) => h.textContent);

test("a tableView draws its sections' headers and rows in order", () => {
  const { el } = start([PETS]);
  assert.deepEqual(tableKeys(el("pets")), ["cat-0", "cat-1", "Rex", "Fido"]);
  assert.deepEqual(headers(el("pets")), ["Cats", "Dogs"]);
  assert.equal(el("pets").getAttribute("role"), "grid");
});

test("tableView keyed ops: a move to another section and its update, then insert and remove", () => {
  const { client, ws, el } = start([PETS]);
  ws.receive(ops("pets", [{ op: "move", from: 0, to: 3 }, { op: "update", index: 3, row: pet("cat-0", "Dogs") }]));
  assert.deepEqual(tableKeys(el("pets")), ["cat-1", "Rex", "Fido", "cat-0"]);
  const dogsHeader = [...el("pets").querySelectorAll("[role=row]")].findIndex((r) => r.textContent === "Dogs");
  const catZero = [...el("pets").querySelectorAll("[role=row]")].findIndex((r) => r.dataset.row === "cat-0");
  assert.ok(catZero > dogsHeader, "cat-0 is drawn under Dogs now");
  ws.receive(ops("pets", [{ op: "insert", index: 1, rows: [pet("cat-2", "Cats")] }, { op: "remove", index: 2, count: 1 }]));
  assert.deepEqual(tableKeys(el("pets")), ["cat-1", "cat-2", "Fido", "cat-0"]);
  assert.deepEqual(client.widgets.get("pets").props.items.map((r) => r.id), ["cat-1", "cat-2", "Fido", "cat-0"]);
});

test("a deleted row that had the focus hands it to the next row, else the previous, else the table", () => {
  const editing = { ...PETS, props: { ...PETS.props, isEditing: true } };
  const { ws, el } = start([editing]);
  const row = (key) => el("pets").querySelector(`[data-row="${key}"]`);
  const focusedRow = () => document.activeElement?.closest?.("[data-row]")?.dataset.row ?? document.activeElement?.dataset?.widget;
  // The user deletes cat-1 from its row's delete button; the answer removes the row.
  row("cat-1").querySelector('[data-action="itemDeleted"]').focus();
  assert.equal(focusedRow(), "cat-1");
  ws.receive(ops("pets", [{ op: "remove", index: 1 }]));
  assert.equal(focusedRow(), "Rex", "the next row, not <body>");
  row("Fido").focus();
  ws.receive(ops("pets", [{ op: "remove", index: 2 }]));
  assert.equal(focusedRow(), "Rex", "the last row's focus goes to the one before");
  ws.receive(ops("pets", [{ op: "remove", index: 0, count: 2 }]));
  assert.equal(focusedRow(), "pets", "with no row left, the table");
  assert.notEqual(document.activeElement, document.body);
});

test("a table's selection is the server's: selectedRows marks the row, a click only asks", () => {
  const { ws, el } = start([PETS]);
  const row = () => el("pets").querySelector('[data-row="Rex"]');
  row().click();
  assert.deepEqual(ws.sent.at(-1), { type: "event", seq: 1, target: "pets", event: "itemSelected", row: "Rex" });
  assert.equal(row().getAttribute("aria-selected"), "false", "not selected until the answer says so");
  ws.receive({ type: "patch", ack: 1, changes: [{ target: "pets", prop: "selectedRows", value: ["Rex"] }] });
  assert.equal(row().getAttribute("aria-selected"), "true");
});

test("a windowed table: holes are asked for with rows requests and filled by the answer", () => {
  const rows = Array.from({ length: 200 }, (_, i) => ({ id: String(i + 1), section: "Numbers", text: `${i + 1}` }));
  const { client, ws } = start([{ id: "numbers", kind: "tableView",
    props: { items: rows, itemCount: 1000, sections: [{ id: "Numbers" }], selectedRows: [] } }]);
  const cached = client.widgets.get("numbers").props.items;
  assert.equal(cached.length, 1000, "the cache has a place for every row");
  assert.equal(cached[500], undefined, "rows not sent are holes");
  // Scroll to the end: the table asks for the block holding the rows in view.
  const table = document.querySelector('[data-widget="numbers"]');
  table.scrollTop = 1000 * 56;
  table.dispatchEvent(new ShimEvent("scroll"));
  clock.tick(100);
  const asked = ws.sent.filter((m) => m.type === "rows");
  assert.ok(asked.length >= 1, "a rows request went out");
  assert.deepEqual(Object.keys(asked[0]), ["type", "seq", "target", "from", "to"]);
  const last = asked.find((m) => m.to === 1000);
  assert.ok(last, `the last block is asked for (${JSON.stringify(asked)})`);
  const answer = Array.from({ length: last.to - last.from }, (_, i) => ({ id: String(last.from + i + 1), section: "Numbers", text: "n" }));
  ws.receive({ type: "rows", ack: last.seq, target: "numbers", from: last.from, count: 1000, rows: answer });
  assert.equal(cached[999].id, "1000");
  assert.equal(ws.sent.filter((m) => m.type === "resync").length, 0);
  // An answer whose count is not the client's length: out of step, so a resync.
  ws.receive({ type: "rows", target: "numbers", from: 0, count: 999, rows: [] });
  assert.equal(ws.sent.filter((m) => m.type === "resync").length, 1);
});
