// A `documentPicker` (UIDocumentPickerViewController): a file input inside a drop target,
// and one row per file going up (name, size, a progress bar, Cancel; then done, or the
// server's error). Files are sent by upload.js; the server's answers drive the bars.
// Keyboard: the file input is an ordinary focusable control (Enter / Space opens the
// browser's dialog); Cancel buttons are buttons. Statuses are announced (aria-live).
import { h } from "../dom.js";
import { FileUpload, formatBytes } from "../upload.js";

const MESSAGES = {
  "upload-too-large": "Too large",
  "upload-aborted": "Stopped",
  "upload-out-of-order": "Failed",
  "bad-value": "Not accepted",
  "rate-limited": "Too many at once",
  disabled: "Not available",
  cancelled: "Cancelled",
};

export default {
  control: true,
  create() {
    const input = h("input", { type: "file", class: "bd-file-input", "aria-label": "Choose files" });
    const limits = h("span", { class: "bd-drop-limits" });
    const hint = h("span", { class: "bd-drop-hint" }, "or drop files here ", limits);
    const drop = h("div", { class: "bd-drop" }, input, hint);
    const list = h("ul", { class: "bd-uploads", "aria-live": "polite" });
    const el = h("div", { class: "bd-docpicker", role: "group" }, drop, list);
    Object.assign(el, { bdInput: input, bdDrop: drop, bdList: list, bdLimits: limits, bdTypes: [], bdMax: null });
    return el;
  },
  wire(el, _send, client) {
    const start = (files) => {
      if (!files?.length || el.bdInput.disabled) return;
      const picked = el.bdInput.multiple ? [...files] : [files[0]];
      uploadAll(el, client, picked);
    };
    el.bdInput.addEventListener("change", () => {
      start(el.bdInput.files);
      el.bdInput.value = ""; // the same file can be picked again
    });
    const drop = el.bdDrop;
    drop.addEventListener("dragover", (e) => {
      if (el.bdInput.disabled) return;
      e.preventDefault();
      e.dataTransfer.dropEffect = "copy";
      drop.classList.add("bd-drop-over");
    });
    drop.addEventListener("dragleave", () => drop.classList.remove("bd-drop-over"));
    drop.addEventListener("drop", (e) => {
      e.preventDefault();
      drop.classList.remove("bd-drop-over");
      start(e.dataTransfer?.files);
    });
  },
  props: {
    allowedContentTypes(el, v) {
      el.bdTypes = Array.isArray(v) ? v : [];
      if (el.bdTypes.length) el.bdInput.setAttribute("accept", el.bdTypes.join(","));
      else el.bdInput.removeAttribute("accept");
      showLimits(el);
    },
    allowsMultipleSelection(el, v) {
      el.bdInput.multiple = v === true;
      el.bdInput.setAttribute("aria-label", el.bdNamed ?? (v === true ? "Choose files" : "Choose a file"));
    },
    maxFileSize(el, v) {
      el.bdMax = typeof v === "number" ? v : null;
      showLimits(el);
    },
    accessibilityLabel(el, v) {
      el.bdNamed = v || undefined;
      if (v) el.bdInput.setAttribute("aria-label", v);
    },
  },
};

function showLimits(el) {
  const parts = [];
  if (el.bdTypes.length) parts.push(el.bdTypes.join(", "));
  if (el.bdMax !== null) parts.push(`up to ${formatBytes(el.bdMax)} each`);
  el.bdLimits.textContent = parts.length ? `(${parts.join("; ")})` : "";
}

/** Sends the files one after another; the last one ends the pick. */
async function uploadAll(el, client, files) {
  const rows = files.map((file) => row(el, file));
  for (let i = 0; i < files.length; i++) {
    const r = rows[i];
    if (r.cancelled) continue;
    const upload = new FileUpload(client, el.dataset.widget, files[i], {
      last: i === files.length - 1,
      onProgress: (sent, total) => {
        r.bar.value = total ? sent / total : 1;
        r.status.textContent = `${Math.round(100 * (total ? sent / total : 1))}%`;
      },
    });
    r.upload = upload;
    r.el.classList.add("bd-upload-active");
    try {
      await upload.run();
      r.bar.value = 1;
      r.status.textContent = "Uploaded";
      r.el.classList.add("bd-upload-done");
    } catch (failure) {
      r.el.classList.add("bd-upload-failed");
      r.status.textContent = MESSAGES[failure?.code] ?? "Failed";
      if (failure?.code !== "cancelled") {
        r.error.textContent = failure?.message ?? "The upload failed.";
        r.error.hidden = false;
        r.error.dataset.code = failure?.code ?? "";
      }
    } finally {
      r.cancel.hidden = true;
      r.el.classList.remove("bd-upload-active");
    }
  }
}

/** One file's row: name, size, bar, status, Cancel, error. */
function row(el, file) {
  const bar = h("progress", { class: "bd-progress bd-upload-bar", max: "1", value: "0", "aria-label": `${file.name} progress` });
  const status = h("span", { class: "bd-upload-status", text: "Waiting" });
  const cancel = h("button", { type: "button", class: "bd-upload-cancel", text: "Cancel", "aria-label": `Cancel ${file.name}` });
  // Not role=alert: the list is a live region, so the reason is read once, with the status.
  const error = h("p", { class: "bd-upload-error", hidden: true });
  const li = h("li", { class: "bd-upload" },
    h("span", { class: "bd-upload-name", text: file.name }),
    h("span", { class: "bd-upload-size", text: formatBytes(file.size) }),
    bar, status, cancel, error);
  el.bdList.append(li);
  const r = { el: li, bar, status, cancel, error, upload: null, cancelled: false };
  cancel.addEventListener("click", () => {
    r.cancelled = true;
    if (r.upload) r.upload.cancel();
    else { status.textContent = "Cancelled"; cancel.hidden = true; li.classList.add("bd-upload-failed"); }
  });
  return r;
}
