// upload.js — sends one file to a `documentPicker` over the session's WebSocket
// (PROTOCOL.md, "Uploads"): uploadBegin, then uploadChunk messages of CHUNK_BYTES each
// (base64 in JSON, so they ride the ordinary seq/ack path), then uploadEnd. Up to
// WINDOW chunks are in flight; each answer (`ack`) moves the progress on, so the bar
// shows what the server has, not what was queued. An error answer, the socket closing or
// cancel() stop it: the server has freed the bytes by then (or frees them on disconnect).

/** Raw bytes per chunk: 32 KiB is 43,692 base64 characters, under the 64 KiB message cap. */
export const CHUNK_BYTES = 32 * 1024;
/** Chunks sent ahead of their answers. */
export const WINDOW = 4;

let nextUpload = 0;

export class FileUpload {
  /**
   * @param client the page's Client (its connection and seq counter)
   * @param target the picker's widget id
   * @param file a File (or Blob with a name)
   * @param last whether it is the pick's last file
   * @param onProgress (sentBytes, totalBytes) on each answer
   */
  constructor(client, target, file, { last = true, onProgress } = {}) {
    this.client = client;
    this.target = target;
    this.file = file;
    this.last = last;
    this.onProgress = onProgress ?? (() => {});
    this.id = `u${Date.now().toString(36)}-${++nextUpload}`;
    this.pending = new Map(); // seq → { resolve, reject }
    this.done = false;
    this.listener = (msg) => this.receive(msg);
  }

  /** Uploads the file; resolves when the server has it, rejects with { code, message }. */
  async run() {
    const conn = this.client.conn;
    conn.listeners.add(this.listener);
    try {
      const size = this.file.size;
      await this.request({ type: "uploadBegin", name: this.file.name || "upload",
                           contentType: this.file.type || "application/octet-stream", size, last: this.last });
      this.onProgress(0, size);
      let offset = 0;
      let acked = 0;
      const inFlight = [];
      while (offset < size || inFlight.length) {
        while (offset < size && inFlight.length < WINDOW) {
          const end = Math.min(size, offset + CHUNK_BYTES);
          const data = await base64(this.file.slice(offset, end));
          this.check();
          const length = end - offset;
          const answered = this.request({ type: "uploadChunk", offset, data }).then(() => {
            acked += length;
            this.onProgress(acked, size);
          });
          answered.catch(() => {}); // a failure is seen where it is awaited
          inFlight.push(answered);
          offset = end;
        }
        await inFlight.shift();
      }
      await this.request({ type: "uploadEnd" });
      this.done = true;
    } finally {
      conn.listeners.delete(this.listener);
      this.failAll({ code: "upload-aborted", message: "stopped" });
    }
  }

  /** Stops the upload and tells the server (which drops what it has). */
  cancel() {
    if (this.done || this.cancelled) return;
    this.cancelled = true;
    this.send({ type: "uploadCancel" });
    this.failAll({ code: "cancelled", message: "Upload cancelled." });
  }

  check() {
    if (this.cancelled) throw { code: "cancelled", message: "Upload cancelled." };
    if (this.failure) throw this.failure;
  }

  send(fields) {
    const seq = ++this.client.seq;
    const message = { ...fields, seq, target: this.target, upload: this.id };
    if (!this.client.conn.send(message)) return 0;
    return seq;
  }

  request(fields) {
    this.check();
    const seq = this.send(fields);
    if (!seq) return Promise.reject((this.failure = { code: "upload-aborted", message: "Not connected: the upload stopped." }));
    this.client.ownedAcks?.add(seq); // a refusal shows in the upload's row, not as a toast too
    return new Promise((resolve, reject) => this.pending.set(seq, { resolve, reject }));
  }

  receive(msg) {
    if (msg === null) {
      // The socket closed: the server aborts the upload (upload-aborted).
      this.failAll({ code: "upload-aborted", message: "The connection dropped: the upload stopped. Try again." });
      return;
    }
    const waiter = typeof msg.ack === "number" ? this.pending.get(msg.ack) : undefined;
    if (!waiter) return;
    this.pending.delete(msg.ack);
    this.client.ownedAcks?.delete(msg.ack);
    if (msg.type === "error") {
      this.failAll({ code: msg.code, message: msg.message });
      waiter.reject(this.failure);
    } else {
      waiter.resolve(msg);
    }
  }

  failAll(failure) {
    if (!this.failure) this.failure = failure;
    for (const seq of this.pending.keys()) this.client.ownedAcks?.delete(seq);
    for (const waiter of this.pending.values()) waiter.reject(this.failure);
    this.pending.clear();
  }
}

/** A blob's bytes as base64 (the browser's own encoder, through a data: URL). */
function base64(blob) {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ""));
    reader.onerror = () => reject({ code: "upload-aborted", message: "The file could not be read." });
    reader.readAsDataURL(blob);
  });
}

/** `512 bytes`, `12.5 KiB`, `1.0 MiB`. */
export function formatBytes(n) {
  if (n < 1024) return `${n} bytes`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / 1024 / 1024).toFixed(1)} MiB`;
}
