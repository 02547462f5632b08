// The view tree (bindery/tree.js): subviews' fields inside their superviews, in order;
// a stack view's arranged ones first; structural patches move fields, never re-render.
import assert from "node:assert/strict";
import { resetDOM } from "./dom-shim.mjs";
import { load, FakeWebSocket, startScene, testWith } from "./harness.mjs";

const { Client } = await load("bindery/client.js");

const test = testWith(() => { resetDOM(); FakeWebSocket.reset(); });

const rows = (...ids) => ids.map((id) => ({ id }));

function start(widgets) {
  const scene = startScene(Client, widgets);
  const { el } = scene;
  const field = (id) => el(id)?.closest("[data-bindery-field]");
  // The ids of the fields directly inside widget `id`'s element.
  const inside = (id) => el(id).children.map((c) => c.querySelector("[data-widget]")?.dataset.widget ?? c.dataset.widget);
  return { ...scene, field, inside };
}

const TREE = [
  { id: "view", kind: "view", props: { subviews: rows("column") } },
  { id: "column", kind: "stackView", props: {
    axis: "vertical", spacing: 12, alignment: "leading", distribution: "fill",
    subviews: rows("name", "note", "form"), arrangement: [{ id: "note" }, { id: "name", spacingAfter: 30 }],
  } },
  { id: "name", kind: "label", props: { text: "Ada" } },
  { id: "note", kind: "label", props: { text: "Hello" } },
  { id: "form", kind: "stackView", props: { axis: "horizontal", subviews: [], arrangement: [] } },
];

test("a scene's subviews are inside their superviews, arranged ones in the stack's order", () => {
  const { el, field, inside, root } = start(TREE);
  const form = root.querySelector("form.bd-form");
  assert.deepEqual(form.children.map((c) => c.querySelector("[data-widget]").dataset.widget), ["view"]);
  assert.deepEqual(inside("view"), ["column"]);
  // `arrangement` first (note, name), then subviews it does not arrange (form).
  assert.deepEqual(inside("column"), ["note", "name", "form"]);
  assert.ok(el("column").classList.contains("bd-layout-column"));
  assert.ok(el("form").classList.contains("bd-layout-row"));
  assert.equal(el("column").style.alignItems, "flex-start");
  assert.equal(el("column").style.getPropertyValue("--bd-gap"), "12px");
  // The custom spacing after `name` replaces the stack's gap.
  assert.equal(field("name").style.marginBottom, "calc(30px - var(--bd-gap, 0px))");
  // A box with subviews is a container, not a decorative picture.
  assert.equal(el("view").hasAttribute("aria-hidden"), false);
  assert.ok(el("view").classList.contains("bd-container"));
});

test("a field added at run time lands in its superview where the patch's ops say", () => {
  const { ws, inside, el } = start(TREE);
  ws.receive({ type: "patch", added: [{ id: "textField-9", kind: "textField", props: { text: "", placeholder: "City" } }],
    changes: [
      { target: "form", prop: "subviews", value: rows("textField-9") },
      { target: "form", prop: "arrangement", value: rows("textField-9") },
    ] });
  assert.deepEqual(inside("form"), ["textField-9"]);
  ws.receive({ type: "patch", added: [{ id: "textField-10", kind: "textField", props: { text: "" } }],
    changes: [{ target: "form", prop: "subviews", ops: [{ op: "insert", index: 0, rows: rows("textField-10") }] }] });
  // Not arranged yet: after the arranged one.
  assert.deepEqual(inside("form"), ["textField-9", "textField-10"]);
  ws.receive({ type: "patch", changes: [{ target: "form", prop: "arrangement", ops: [{ op: "insert", index: 0, rows: rows("textField-10") }] }] });
  assert.deepEqual(inside("form"), ["textField-10", "textField-9"]);
  assert.equal(el("textField-9").placeholder, "City");
});

test("a view moved to another superview keeps its element; a removed one goes", () => {
  const { ws, inside, el } = start(TREE);
  const note = el("note");
  ws.receive({ type: "patch", changes: [
    { target: "column", prop: "subviews", value: rows("name", "form") },
    { target: "column", prop: "arrangement", value: rows("name") },
    { target: "form", prop: "subviews", value: rows("note") },
  ] });
  assert.deepEqual(inside("column"), ["name", "form"]);
  assert.deepEqual(inside("form"), ["note"]);
  assert.equal(el("note"), note, "moved, not rendered again");
  ws.receive({ type: "patch", removed: ["note"], changes: [{ target: "form", prop: "subviews", value: [] }] });
  assert.equal(el("note"), null);
  assert.deepEqual(inside("form"), []);
});

test("a subviews list naming an ancestor or an unknown id is ignored, not a cycle", () => {
  const { ws, inside } = start(TREE);
  assert.doesNotThrow(() => ws.receive({ type: "patch", changes: [
    { target: "form", prop: "subviews", value: rows("view", "nope", "column") },
  ] }));
  assert.deepEqual(inside("view"), ["column"]);
  assert.deepEqual(inside("form"), []);
});
