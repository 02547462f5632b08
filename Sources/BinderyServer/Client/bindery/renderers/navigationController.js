// A `navigationController` (UINavigationController): a bar (back button, title, left and
// right bar button items) over the top screen of `screens`; the other screens' widgets
// are kept hidden. The browser's history follows the stack: a push adds a history entry
// whose URL names the screen — #/<restorationIdentifier>/… when every pushed screen has
// one (a reload, a resume after expiry or a copied link lands there: the client sends it
// as the socket's `screen`), else #<screen key>/<title> — and Back, the bar's or the
// browser's, is history.back() → popstate → the `back` event naming the screen left.
// A pop the server makes on its own (a Save that pops) steps history back quietly.
// With history off (attach mode's default) the bar's Back sends `back` itself.
// In attach mode the page's own element is hydrated: its content is the root screen.
import { h, nextId } from "../dom.js";

const slug = (s) => String(s ?? "").toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "-").replace(/^-|-$/g, "");
/** The URL's hash for the stack's first `depth` screens ("" at the root). */
export function hashFor(screens, depth) {
  const stack = screens.slice(0, depth);
  if (stack.length <= 1) return "";
  const ids = stack.slice(1).map((s) => s.restorationIdentifier);
  if (ids.every((id) => typeof id === "string")) return `#/${ids.map(encodeURIComponent).join("/")}`;
  const top = stack[stack.length - 1];
  return `#${top.id}${top.title ? `/${slug(top.title)}` : ""}`;
}

/** The top-level child of the form that holds widget `id`'s field (keeps layouts whole). */
function holderOf(el, id) {
  const control = document.querySelector(`[data-widget="${CSS.escape(id)}"]`);
  if (!control) return null;
  const form = el.closest("form") ?? document.body;
  let node = control.closest("[data-bindery-field]") ?? control;
  // Already placed in a screen, the bar or the parking: that field itself.
  if (el.contains(node)) return node;
  // Attach mode: rendered into the client's pool of added widgets: that field.
  const pool = node.closest(".bd-attach-added");
  if (pool) { while (node.parentElement !== pool) node = node.parentElement; return node; }
  while (node.parentElement && node.parentElement !== form) node = node.parentElement;
  return node.parentElement === form ? node : null;
}

function layoutScreens(el) {
  const screens = el.bdWidget?.props.screens ?? [];
  const top = screens[screens.length - 1];
  const keep = new Set(screens.map((s) => s.id));
  // Attach mode: the page's own markup is the root screen, and stays as it was written.
  const pageRoot = el.bdScreens.querySelector(":scope > [data-screen-root]");
  if (pageRoot && screens[0]) pageRoot.dataset.screen = screens[0].id;
  for (const box of [...el.bdScreens.children]) if (!keep.has(box.dataset.screen)) box.remove();
  for (const s of screens) {
    let box = el.bdScreens.querySelector(`:scope > [data-screen="${CSS.escape(s.id)}"]`);
    if (!box) { box = h("div", { class: "bd-nav-screen", "data-screen": s.id }); el.bdScreens.append(box); }
    box.hidden = s !== top;
    for (const id of s.widgets ?? []) {
      const holder = holderOf(el, id);
      // The page's own markup for a root widget stays where the page put it.
      if (box === pageRoot && !holder?.parentElement?.classList.contains("bd-attach-added")) continue;
      if (holder && holder !== el.closest("[data-bindery-field]") && holder.parentElement !== box) box.append(holder);
    }
  }
  // The bar: back button, title, items (bar button items are widgets: their fields move here).
  const left = el.bdLeft;
  const right = el.bdRight;
  for (const slot of [left, right]) for (const f of [...slot.querySelectorAll(":scope > [data-bindery-field]")]) el.bdParking.append(f);
  const item = (id) => (id ? holderOf(el, id) : null);
  // The items of the screens below the top wait in the parking (a page opened on a pushed
  // screen has not shown them yet: they are still where the scene was rendered).
  for (const s of screens) {
    if (s === top) continue;
    for (const id of [s.leftBarButtonItem, s.rightBarButtonItem]) {
      const f = item(id);
      if (f && f.parentElement !== el.bdParking) el.bdParking.append(f);
    }
  }
  const showBack = top && screens.length > 1 && !top.hidesBackButton && (!top.leftBarButtonItem || top.leftItemsSupplementBackButton);
  el.bdBack.hidden = !showBack;
  el.bdBack.querySelector(".bd-nav-back-title").textContent = top?.backTitle ?? "Back";
  el.bdBack.setAttribute("aria-label", `Back to ${top?.backTitle ?? "the previous screen"}`);
  const l = item(top?.leftBarButtonItem);
  const r = item(top?.rightBarButtonItem);
  if (l) left.append(l);
  if (r) right.append(r);
  const titleChanged = el.bdTitle.textContent !== (top?.title ?? "");
  el.bdTitle.textContent = top?.title ?? "";
  syncHistory(el, screens, titleChanged);
}

function syncHistory(el, screens, titleChanged) {
  const depth = screens.length;
  const top = screens[depth - 1];
  if (!top) return;
  const known = el.bdDepth;
  if (el.bdHistory === false) {
    // History is the host page's (attach mode): only announce the new screen.
    if (known !== undefined && depth !== known) announceScreen(el);
    el.bdDepth = depth;
    return;
  }
  const urlAt = (d) => `${location.pathname}${location.search}${hashFor(screens, d)}`;
  const url = () => urlAt(depth);
  if (known === undefined) {
    // First render (or a reload / resume that lands on a pushed screen).
    if (history.state?.bdNavDepth === depth) history.replaceState({ bdNavDepth: depth, bdScreen: top.id }, "", url());
    else {
      history.replaceState({ bdNavDepth: 1, bdScreen: screens[0].id }, "", urlAt(1));
      for (let d = 2; d <= depth; d++) history.pushState({ bdNavDepth: d, bdScreen: screens[d - 1].id }, "", urlAt(d));
    }
  } else if (depth > known) {
    for (let d = known + 1; d <= depth; d++) history.pushState({ bdNavDepth: d, bdScreen: screens[d - 1].id }, "", urlAt(d));
    announceScreen(el);
  } else if (depth < known) {
    if ((history.state?.bdNavDepth ?? depth) > depth) {
      // The server popped (not the user's Back): step history back without sending.
      el.bdQuietPops = (el.bdQuietPops ?? 0) + 1;
      history.go(depth - history.state.bdNavDepth);
    }
    announceScreen(el);
  } else if (titleChanged || history.state?.bdScreen !== top.id || location.href !== new URL(url(), location.href).href) {
    // The user's Back already moved history (popstate): name the screen, announce it.
    history.replaceState({ bdNavDepth: depth, bdScreen: top.id }, "", url());
    if (titleChanged) announceScreen(el);
  }
  el.bdDepth = depth;
}

/** After a push or pop, focus goes to the new screen's title (screen readers hear it). */
function announceScreen(el) {
  queueMicrotask(() => {
    if (document.querySelector("dialog[open]")) return;
    el.bdTitle.focus({ preventScroll: false });
  });
}

const renderer = {
  create() {
    const back = h("button", { type: "button", class: "bd-nav-back" },
      h("span", { class: "bd-nav-chevron", "aria-hidden": "true", text: "‹" }), h("span", { class: "bd-nav-back-title", text: "Back" }));
    const title = h("h2", { class: "bd-nav-title", id: nextId("bd-nav-title"), tabindex: "-1" });
    const left = h("div", { class: "bd-nav-items bd-nav-left" });
    const right = h("div", { class: "bd-nav-items bd-nav-right" });
    const bar = h("div", { class: "bd-navbar" }, h("div", { class: "bd-nav-leading" }, back, left), title, right);
    const screens = h("div", { class: "bd-nav-screens" });
    const parking = h("div", { hidden: true });
    const el = h("div", { class: "bd-nav", role: "region", "aria-labelledby": title.id }, bar, screens, parking);
    Object.assign(el, { bdBack: back, bdTitle: title, bdLeft: left, bdRight: right, bdScreens: screens, bdParking: parking });
    return el;
  },
  /** Attach mode: the page's element gets the bar and the screens; its content is the root screen. */
  hydrate(el) {
    if (el.bdScreens) return;
    const built = renderer.create();
    const root = h("div", { class: "bd-nav-screen", "data-screen-root": "" });
    root.append(...el.childNodes);
    built.bdScreens.append(root);
    el.classList.add("bd-nav");
    el.setAttribute("role", "region");
    el.setAttribute("aria-labelledby", built.bdTitle.id);
    const { bdBack, bdTitle, bdLeft, bdRight, bdScreens, bdParking } = built;
    el.append(...built.childNodes);
    Object.assign(el, { bdBack, bdTitle, bdLeft, bdRight, bdScreens, bdParking });
  },
  wire(el, send) {
    el.bdBack.addEventListener("click", () => {
      if (el.bdHistory !== false) { history.back(); return; }
      const screens = el.bdWidget?.props.screens ?? [];
      if (screens.length > 1) send("back", undefined, { fields: { row: screens[screens.length - 1].id } });
    });
    if (el.bdHistory === false) return;
    const onPop = (e) => {
      if (!el.isConnected) { window.removeEventListener("popstate", onPop); return; }
      const depth = e.state?.bdNavDepth ?? 1;
      if (el.bdQuietPops > 0) { el.bdQuietPops -= 1; return; }
      const screens = el.bdWidget?.props.screens ?? [];
      if (depth < screens.length) {
        // One back per step (the server refuses a second Back for the same screen).
        for (let i = screens.length - 1; i >= depth; i--) send("back", undefined, { fields: { row: screens[i].id } });
        el.bdDepth = depth; // history is already there
      } else if (depth > screens.length) {
        // Forward to a screen that was popped: it is gone; stay where the stack is.
        el.bdQuietPops = (el.bdQuietPops ?? 0) + 1;
        history.go(screens.length - depth);
      }
    };
    window.addEventListener("popstate", onPop);
  },
  props: {
    screens(el, _v, w) { el.bdWidget = w; layoutScreens(el); },
  },
  ops(el) { layoutScreens(el); return true; },
};

export default renderer;
