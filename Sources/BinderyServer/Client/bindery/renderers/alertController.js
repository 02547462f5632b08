// An `alertController` (UIAlertController): a modal <dialog> (the browser traps focus in
// it and makes the page inert), its title, message, text fields (ordinary textField
// widgets, moved into it) and actions. Choosing an action sends actionTriggered with its
// index and the fields' texts; Escape (and, for an action sheet, a click outside it)
// chooses the cancel action. The server dismisses it: the patch's `removed` takes it away
// and focus goes back where it was.
import { h, nextId } from "../dom.js";

function show(el) {
  if (el.open || !el.isConnected) return;
  el.bdReturnFocus = document.activeElement;
  el.showModal();
  // Focus the first text field, else the preferred action, else the first action.
  const field = el.querySelector(".bd-alert-fields input, .bd-alert-fields textarea");
  const preferred = el.querySelector(".bd-alert-action[data-preferred]:not([disabled])");
  (field ?? preferred ?? el.querySelector(".bd-alert-action:not([disabled])"))?.focus();
}

function choose(el, index) {
  const texts = (el.bdWidget?.props.textFields ?? []).map((id) => el.querySelector(`[data-widget="${CSS.escape(id)}"]`)?.value ?? "");
  el.bdSend("actionTriggered", texts.length ? texts : undefined, { fields: { action: index } });
}

function cancelIndex(el) {
  const i = (el.bdWidget?.props.actions ?? []).findIndex((a) => a.style === "cancel" && a.isEnabled !== false);
  return i;
}

const renderer = {
  create() {
    const title = h("h2", { class: "bd-alert-title", id: nextId("bd-alert-title") });
    const message = h("p", { class: "bd-alert-message", id: nextId("bd-alert-message") });
    const fields = h("div", { class: "bd-alert-fields" });
    const actions = h("div", { class: "bd-alert-actions" });
    const el = h("dialog", { class: "bd-alert", "aria-labelledby": title.id, "aria-describedby": message.id }, title, message, fields, actions);
    Object.assign(el, { bdTitle: title, bdMessage: message, bdFields: fields, bdActions: actions });
    return el;
  },
  wire(el, send) {
    el.bdSend = send;
    // Escape: the cancel action (UIKit: the cancel action is what dismissing means).
    el.addEventListener("cancel", (e) => {
      e.preventDefault();
      const i = cancelIndex(el);
      if (i >= 0) choose(el, i);
    });
    el.addEventListener("click", (e) => {
      const b = e.target.closest(".bd-alert-action");
      if (b && !b.disabled) { choose(el, Number(b.dataset.action)); return; }
      // A click on the backdrop of an action sheet (the dialog itself, outside its box).
      if (e.target === el && el.dataset.style === "actionSheet") {
        const r = el.getBoundingClientRect();
        const inside = e.clientX >= r.left && e.clientX <= r.right && e.clientY >= r.top && e.clientY <= r.bottom;
        const i = cancelIndex(el);
        if (!inside && i >= 0) choose(el, i);
      }
    });
    el.addEventListener("keydown", (e) => {
      // A modal dialog makes the page inert, but Tab past its last control would leave for
      // the browser's own UI: wrap around instead (the focus stays trapped).
      if (e.key !== "Tab") return;
      const stops = [...el.querySelectorAll("input:not([disabled]), textarea:not([disabled]), button:not([disabled])")];
      if (!stops.length) return;
      const first = stops[0];
      const last = stops[stops.length - 1];
      if (e.shiftKey && document.activeElement === first) { e.preventDefault(); last.focus(); }
      else if (!e.shiftKey && document.activeElement === last) { e.preventDefault(); first.focus(); }
    });
    el.addEventListener("keydown", (e) => {
      // Return in a text field chooses the preferred action (else the only non-cancel
      // one). Typing may have just enabled it: the answer can still be on its way, so a
      // disabled candidate is retried for a second before giving up.
      if (e.key !== "Enter" || e.isComposing || !e.target.matches("input")) return;
      const candidate = () => {
        const acts = el.bdWidget?.props.actions ?? [];
        const preferred = acts.findIndex((a) => a.isPreferred);
        if (preferred >= 0) return preferred;
        const others = acts.map((a, j) => [a, j]).filter(([a]) => a.style !== "cancel");
        return others.length === 1 ? others[0][1] : -1;
      };
      if (candidate() < 0) return;
      e.preventDefault();
      e.stopPropagation();
      const started = performance.now();
      const attempt = () => {
        if (!el.open) return;
        const i = candidate();
        if (i >= 0 && el.bdWidget.props.actions[i].isEnabled !== false) choose(el, i);
        else if (performance.now() - started < 1000) setTimeout(attempt, 50);
      };
      attempt();
    }, true);
  },
  // `actions` change by keyed ops (an action enabled as the user types): redraw them
  // from the client's cached rows.
  ops(el) {
    const w = el.bdWidget;
    if (w) renderer.props.actions(el, w.props.actions, w);
    return true;
  },
  destroy(el) {
    if (el.open) el.close();
    const back = el.bdReturnFocus;
    queueMicrotask(() => {
      if (back?.isConnected && !back.closest("[hidden]")) back.focus();
      else document.querySelector(".bd-nav-title, h1")?.focus?.();
    });
  },
  props: {
    title(el, v, w) { el.bdWidget = w; el.bdTitle.textContent = v ?? ""; el.bdTitle.hidden = !v; queueMicrotask(() => show(el)); },
    message(el, v) { el.bdMessage.textContent = v ?? ""; el.bdMessage.hidden = !v; },
    preferredStyle(el, v) { el.dataset.style = v ?? "alert"; },
    actions(el, actions, w) {
      el.bdWidget = w;
      // Cancel goes last in a sheet and stays in place in an alert (as iOS lays them out).
      const list = (actions ?? []).map((a, i) => ({ a, i }));
      const sheet = (w?.props.preferredStyle ?? el.dataset.style) === "actionSheet";
      if (sheet) list.sort((x, y) => (x.a.style === "cancel") - (y.a.style === "cancel"));
      // Buttons are updated in place (focus stays on them while an action wakes up).
      const old = [...el.bdActions.children];
      list.forEach(({ a, i }, n) => {
        const b = old[n] ?? el.bdActions.appendChild(h("button", { type: "button" }));
        b.className = `bd-alert-action bd-alert-${a.style ?? "default"}`;
        b.dataset.action = String(i);
        b.toggleAttribute("data-preferred", a.isPreferred === true);
        b.disabled = a.isEnabled === false;
        b.textContent = a.title ?? "";
      });
      old.slice(list.length).forEach((b) => b.remove());
      el.bdActions.classList.toggle("bd-alert-actions-row", !sheet && list.length === 2);
      queueMicrotask(() => show(el));
    },
    textFields(el, ids) {
      // The fields are textField widgets of their own: their fields move into the dialog.
      for (const id of ids ?? []) {
        const input = document.querySelector(`[data-widget="${CSS.escape(id)}"]`);
        const field = input?.closest("[data-bindery-field]") ?? input;
        if (field && field.parentElement !== el.bdFields) el.bdFields.append(field);
      }
      queueMicrotask(() => show(el));
    },
  },
};

export default renderer;
