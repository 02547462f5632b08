// connection.js — one WebSocket at a time to /ws/<scene>, resuming the session by its
// token (kept in sessionStorage, so a reload resumes too) and reconnecting for ever with
// exponential backoff and jitter: after a network drop, a crash, or the server's
// `bye shutdown`. It retries at once when the tab becomes visible, the network comes
// back, or the page returns from the back/forward cache; `pagehide` closes the socket.
//
// States reported through onStatus(state, info): connecting, connected, reconnecting,
// offline (several tries failed, or the browser is offline: still trying), ended (the
// session was ended or taken over: no more tries until restart()).

export const BACKOFF_FIRST_MS = 250;
export const BACKOFF_MAX_MS = 8_000;
const OFFLINE_AFTER_FAILURES = 4;
/** Rows of a large table sent in a `scene`; the table asks for the rest as it scrolls. */
export const ROW_WINDOW = 200;

export class Connection {
  constructor({ scene, base, parameters, screenPath, onMessage, onStatus }) {
    this.scene = scene;
    this.base = base ?? window.location.href;
    this.parameters = parameters ?? {}; // the scene's, sent as the socket's query
    this.screenPath = screenPath ?? (() => ""); // the screens a new session opens on
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    // One token per scene and parameters: /scene/repo?id=1 and ?id=2 are different sessions.
    const query = new URLSearchParams(Object.entries(this.parameters).sort(([a], [b]) => (a < b ? -1 : 1))).toString();
    this.storageKey = `bindery:session:${scene}${query ? `?${query}` : ""}`;
    this.failures = 0;
    this.ws = null;
    this.timer = null;
    this.retryAt = 0;
    this.ended = false; // the session ended or was taken over: wait for restart()
    this.suspended = false; // the page is hidden in the back/forward cache
    this.everConnected = false;
    // Extra readers of every message (an upload waiting for its answers); null = closed.
    this.listeners = new Set();

    const retry = () => this.retryNow();
    window.addEventListener("online", retry);
    window.addEventListener("offline", () => { if (!this.ws) this.report(); });
    document.addEventListener("visibilitychange", () => { if (document.visibilityState === "visible") retry(); });
    // Leaving the page (or hiding it in the bfcache) closes the socket, so the server
    // counts the viewer as gone at once; a bfcache restore reconnects (same session).
    window.addEventListener("pagehide", () => this.suspend());
    window.addEventListener("pageshow", (e) => { if (e.persisted || this.suspended) this.resume(); });
  }

  get token() {
    try { return sessionStorage.getItem(this.storageKey); } catch { return null; }
  }

  set token(value) {
    try {
      if (value) sessionStorage.setItem(this.storageKey, value);
      else sessionStorage.removeItem(this.storageKey);
    } catch { /* storage disabled: sessions still work, they just do not survive a reload */ }
  }

  get connected() { return this.ws?.readyState === WebSocket.OPEN && this.live; }

  url() {
    const u = new URL(`/ws/${encodeURIComponent(this.scene)}`, this.base);
    u.protocol = u.protocol === "https:" ? "wss:" : "ws:";
    for (const [k, v] of Object.entries(this.parameters)) u.searchParams.set(k, v);
    if (this.token) u.searchParams.set("session", this.token);
    const screen = this.screenPath();
    if (screen) u.searchParams.set("screen", screen);
    u.searchParams.set("rows", String(ROW_WINDOW)); // large tables come windowed (PROTOCOL.md: Large tables)
    return u.href;
  }

  open() {
    clearTimeout(this.timer);
    this.timer = null;
    if (this.ended || this.suspended) return;
    this.report(this.everConnected || this.failures ? "reconnecting" : "connecting");
    let ws;
    try { ws = new WebSocket(this.url()); } catch { this.scheduleRetry(); return; }
    this.ws = ws;
    this.live = false;
    ws.onmessage = (e) => {
      if (this.ws !== ws) return;
      let msg;
      try { msg = JSON.parse(e.data); } catch { return; }
      if (msg.type === "error" && msg.code === "bad-parameter" && !this.live) {
        // The scene refused the page's parameters: the socket closes with 4400; no retry.
        this.refusal = msg.message ?? "bad parameter";
        return;
      }
      if (msg.type === "scene" && !this.live) {
        // The first scene message ends the handshake: the session (new or resumed) is live.
        this.live = true;
        this.token = msg.session;
        this.failures = 0;
        this.everConnected = true;
        this.onStatus("connected");
      }
      if (msg.type === "bye") {
        if (msg.reason === "shutdown") {
          // The server is stopping: it will be back (maybe with our session). Keep trying.
          this.byeShutdown = true;
        } else {
          // Deleted, or ended by a bye: do not resume a session that is gone.
          this.token = null;
          this.end(`The session ended${msg.reason ? ` (${msg.reason})` : ""}.`);
        }
      }
      this.onMessage(msg);
      for (const listener of this.listeners) listener(msg);
    };
    ws.onclose = (e) => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.live = false;
      for (const listener of this.listeners) listener(null);
      if (this.ended || this.suspended) return;
      if (e.code === 4400) {
        this.token = null;
        this.end(this.refusal ?? "bad parameter", false, { badParameter: true });
        return;
      }
      if (e.code === 4001 && e.reason !== "session moved") {
        // Another tab or client took this session over: do not fight it for the token.
        this.end("This session was opened in another window.", true);
        return;
      }
      if (e.code === 1001 || e.code === 4001) {
        // The server is draining (1001), or the session moved to another server (4001
        // "session moved"): resume elsewhere at once, with a little jitter.
        this.failures = 0;
        clearTimeout(this.timer);
        this.timer = setTimeout(() => this.open(), Math.random() * 100);
        this.report("reconnecting");
        return;
      }
      this.scheduleRetry();
    };
  }

  scheduleRetry() {
    this.failures += 1;
    // Exponential backoff with jitter, so a restarted server is not hit by every tab at once.
    const delay = Math.min(BACKOFF_MAX_MS, BACKOFF_FIRST_MS * 2 ** (this.failures - 1)) * (0.5 + Math.random() / 2);
    this.retryAt = Date.now() + delay;
    this.timer = setTimeout(() => this.open(), delay);
    this.report();
  }

  report(state) {
    if (!state) state = !navigator.onLine || this.failures >= OFFLINE_AFTER_FAILURES ? "offline" : "reconnecting";
    this.onStatus(state, { retryAt: this.retryAt, failures: this.failures });
  }

  /** Tries again now (the user asked, the tab is visible again, the network is back). */
  retryNow() {
    if (this.ended || this.suspended || this.ws) return;
    this.failures = Math.min(this.failures, 1);
    this.open();
  }

  end(detail, takenOver = false, extra = {}) {
    this.ended = true;
    clearTimeout(this.timer);
    this.onStatus("ended", { detail, takenOver, ...extra });
  }

  suspend() {
    this.suspended = true;
    clearTimeout(this.timer);
    const ws = this.ws;
    this.ws = null;
    this.live = false;
    ws?.close(1000, "page hidden");
  }

  resume() {
    this.suspended = false;
    if (!this.ws && !this.ended) { this.failures = 0; this.open(); }
  }

  /** A fresh session (forgets the token), e.g. after a takeover or an ended session. */
  restart() {
    this.token = null;
    this.failures = 0;
    this.ended = false;
    this.close();
    this.ended = false;
    this.open();
  }

  /** Takes this session back (after another window took it over). */
  reclaim() {
    this.ended = false;
    this.failures = 0;
    this.open();
  }

  send(message) {
    if (!this.connected) return false;
    this.ws.send(JSON.stringify(message));
    return true;
  }

  /** Closes the socket and stops retrying. */
  close() {
    this.ended = true;
    clearTimeout(this.timer);
    const ws = this.ws;
    this.ws = null;
    ws?.close(1000);
  }
}
