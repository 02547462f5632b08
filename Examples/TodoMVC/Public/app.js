// TodoMVC's page logic that is not a plain widget: the row actions, the edit field and the
// URL filter. Everything it does is a `client.send(widget, event, value)` to the server; the
// server's answer redraws the rows (attach mode, /bindery.js).
import { attach } from "/bindery.js";

const ROUTES = ["#/", "#/active", "#/completed"]; // the `filter` segments, in order
const list = document.querySelector(".todo-list");

const client = attach({ scene: "todomvc", onScene: syncFilter, onPatch: decorateRows });
window.bindery = client; // for the console and the browser test

// The URL names the filter: tell the server, and mark the link.
function routeIndex() {
  return Math.max(0, ROUTES.indexOf(location.hash || "#/"));
}

function syncFilter(scene) {
  const filter = scene.widgets.find((w) => w.id === "filter");
  if (filter && filter.props.selectedSegmentIndex !== routeIndex()) {
    client.send("filter", "valueChanged", routeIndex());
  }
  decorateRows();
}

function markRoute() {
  document.querySelectorAll(".filters a").forEach((a) => {
    const selected = a.getAttribute("href") === ROUTES[routeIndex()];
    a.classList.toggle("selected", selected);
    if (selected) a.setAttribute("aria-current", "page"); else a.removeAttribute("aria-current");
  });
}

window.addEventListener("hashchange", () => {
  markRoute();
  client.send("filter", "valueChanged", routeIndex());
});
markRoute();

// Rows: the template fills text; the row's state comes from its `completed` and `editing`
// fields. A changed row is a new element, so each one is set up once.
function decorateRows() {
  for (const li of list.querySelectorAll("li[data-row]:not([data-ready])")) {
    li.dataset.ready = "";
    const field = (name) => li.querySelector(`[data-field="${name}"]`).textContent;
    const title = field("title");
    const completed = field("completed") === "true";
    li.classList.toggle("completed", completed);
    li.querySelector(".toggle").checked = completed;
    li.querySelector(".toggle").setAttribute("aria-label", `Complete ${title}`);
    li.querySelector(".destroy").setAttribute("aria-label", `Delete ${title}`);
    if (field("editing") === "true") {
      li.classList.add("editing");
      const edit = li.querySelector(".edit");
      edit.value = title;
      edit.setAttribute("aria-label", `Edit ${title}`);
      edit.focus();
      edit.setSelectionRange(title.length, title.length);
    }
  }
}

// Row actions: one delegated listener each, sending the row's id.
const rowID = (el) => el.closest("li[data-row]")?.dataset.row;
const rowAction = (widget, el) => client.send(widget, "editingDidEndOnExit", rowID(el));

list.addEventListener("change", (e) => {
  if (e.target.matches(".toggle")) rowAction("toggleTodo", e.target);
});
list.addEventListener("click", (e) => {
  if (e.target.matches(".destroy")) rowAction("destroyTodo", e.target);
});
list.addEventListener("dblclick", (e) => {
  if (e.target.matches(".view label")) rowAction("editTodo", e.target);
});

// The edit field: Return saves, leaving it saves, Escape cancels; only the first counts.
list.addEventListener("keydown", (e) => {
  if (e.target.matches(".view label") && (e.key === "Enter" || e.key === "F2")) {
    rowAction("editTodo", e.target);
  } else if (e.target.matches(".edit") && !e.isComposing) {
    if (e.key === "Enter") finishEdit(e.target, "editingDidEndOnExit");
    else if (e.key === "Escape") finishEdit(e.target, null);
  }
});
list.addEventListener("focusout", (e) => {
  if (e.target.matches(".edit")) finishEdit(e.target, "editingDidEnd");
});

function finishEdit(input, event) {
  if (input.dataset.done !== undefined) return;
  input.dataset.done = "";
  if (event) client.send("editor", event, input.value);
  else client.send("cancelEdit", "touchUpInside");
}
