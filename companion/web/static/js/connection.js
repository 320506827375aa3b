// One websocket to the table that survives sleeping phones and flaky Wi-Fi.
//
// - reconnects by itself with exponential backoff and full jitter (0.5 s .. 15 s),
//   and at once when the page becomes visible again or the browser comes back online;
// - gives the socket up at once when the browser says the network is gone (its "offline"
//   event: Wi-Fi off or out of range), so the page says so then, not after the heartbeat;
// - an application heartbeat (ping/pong) notices a dead socket that the OS has not closed,
//   and sooner while a command waits for its ack: a tap must not sit on "sending" for the
//   heartbeat's 25 s when the Wi-Fi dropped just after it;
// - commands carry ids and wait in an outbox until acked, so a retry after a reconnect is
//   never applied twice (the server answers a repeated id with the original ack);
// - close codes 4401 (bad token) and 4409 (taken over / released) stop the retries, 4410 (table
//   closed) slows them down; each is a different status for the page to show.

const BACKOFF_MIN_MS = 500;
const BACKOFF_MAX_MS = 15000;
const HEARTBEAT_MS = 10000;
const DEAD_AFTER_MS = 25000;
// While a command waits for its ack: checked every second; nothing heard for half of
// ACK_QUIET_MS since it was sent asks with a ping, nothing for all of it gives the socket up
// (the server answers a ping or a command within milliseconds, and sends every view).
const ACK_CHECK_MS = 1000;
const ACK_QUIET_MS = 6000;
const CLOSED_RETRY_MS = 10000;

/** Absolute ws:// or wss:// URL for a websocket path given by the server. */
export function wsUrl(path) {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${location.host}${path}`;
}

export class Connection {
  /**
   * @param {object} o
   * @param {string} o.path websocket path (e.g. "/t/1/ws/seat")
   * @param {() => object|null} [o.hello] first message after every open (null: none)
   * @param {() => object} [o.auth] fields added to every message (e.g. {token})
   * @param {(frame: object) => void} o.onFrame every frame from the server
   * @param {(status: string, detail?: object) => void} [o.onStatus] connecting | open |
   *   reconnecting | taken_over | removed | bad_token | closed
   */
  constructor({ path, hello = () => null, auth = () => ({}), onFrame, onStatus = () => {} }) {
    this.path = path;
    this.hello = hello;
    this.auth = auth;
    this.onFrame = onFrame;
    this.onStatus = onStatus;
    this.ws = null;
    this.status = "idle";
    this.attempt = 0;
    this.timer = null;
    this.heartbeat = null;
    this.lastHeard = 0;
    this.outbox = new Map(); // id -> message, in insertion order
    this.sentAt = 0; // when a command last went out (sent, or sent again on a reconnect)
    this.ackWatch = null;
    this.lastDrop = null; // why this page last gave up a socket itself: "silent" | "no_ack" | "offline"
    this.stopped = false;
    this._bindPageEvents();
  }

  _bindPageEvents() {
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible") this._wake();
    });
    window.addEventListener("online", () => this._wake());
    window.addEventListener("offline", () => this._offline());
    window.addEventListener("pageshow", () => this._wake());
  }

  /** Something suggests the network may be back: check the socket, reconnect at once if needed. */
  _wake() {
    if (this.stopped) return;
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      if (Date.now() - this.lastHeard > HEARTBEAT_MS) this._ping();
      return;
    }
    if (this.status === "reconnecting" || this.status === "closed") {
      this.attempt = 0;
      this._connectNow();
    }
  }

  /** The browser says the network is gone: a socket on it can neither send nor hear, so it is
   * given up now and the page shows "reconnecting" (the heartbeat would take up to 35 s). The
   * retries wait out their backoff; "online" tries again at once. */
  _offline() {
    if (this.stopped || !this.ws) return;
    this._abandon("offline");
  }

  _setStatus(status, detail) {
    this.status = status;
    this.onStatus(status, detail);
  }

  /** Open the socket (first time, or after a taken_over when the user takes the seat back). */
  start() {
    this.stopped = false;
    this.attempt = 0;
    this._setStatus("connecting");
    this._connectNow();
  }

  /** Stop for good (no retries). */
  stop(status = "stopped") {
    this.stopped = true;
    clearTimeout(this.timer);
    this._stopHeartbeat();
    if (this.ws) {
      const ws = this.ws;
      this.ws = null;
      try {
        ws.close(1000);
      } catch {
        /* already closing */
      }
    }
    this._setStatus(status);
  }

  /** Try again now, skipping the rest of the backoff wait. */
  retryNow() {
    if (this.stopped) return;
    this.attempt = 0;
    this._connectNow();
  }

  _connectNow() {
    clearTimeout(this.timer);
    if (this.ws) {
      const old = this.ws;
      this.ws = null;
      old.onclose = old.onmessage = old.onerror = old.onopen = null;
      try {
        old.close();
      } catch {
        /* ignore */
      }
    }
    let ws;
    try {
      ws = new WebSocket(wsUrl(this.path));
    } catch (err) {
      this._scheduleReconnect();
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      if (ws !== this.ws) return;
      this.attempt = 0;
      this.lastHeard = Date.now();
      const hello = this.hello();
      if (hello) ws.send(JSON.stringify(hello));
      // Anything not acked before the drop is sent again with its id (idempotent on the server).
      for (const message of this.outbox.values()) ws.send(JSON.stringify(message));
      if (this.outbox.size) this.sentAt = Date.now();
      this._startHeartbeat();
      this._setStatus("open");
    };
    ws.onmessage = (event) => {
      if (ws !== this.ws) return;
      this.lastHeard = Date.now();
      let frame;
      try {
        frame = JSON.parse(event.data);
      } catch {
        return;
      }
      if (frame.type === "pong") return;
      // An error names the refused message (a rate_limited one too: it was dropped, not
      // kept), so it is not sent again after a reconnect; the page says it was not sent.
      if ((frame.type === "ack" || frame.type === "error") && frame.id != null) {
        this.outbox.delete(frame.id);
      }
      if (frame.type === "taken_over") {
        this.stop("taken_over");
        return;
      }
      if (frame.type === "removed") {
        this.stop("removed"); // the host took the seat away: not another device of ours
        return;
      }
      if (frame.type === "table_closed") {
        this._closedByTable = true;
      }
      this.onFrame(frame);
    };
    ws.onclose = (event) => {
      if (ws !== this.ws) return;
      this.ws = null;
      this._stopHeartbeat();
      if (event.code === 4409) this.stop("taken_over");
      else if (event.code === 4401) this.stop("bad_token");
      else if (event.code === 4410 || this._closedByTable) {
        this._closedByTable = false;
        this._setStatus("closed");
        this.timer = setTimeout(() => this._connectNow(), CLOSED_RETRY_MS);
      } else this._scheduleReconnect();
    };
    ws.onerror = () => {
      /* onclose follows */
    };
  }

  _scheduleReconnect() {
    if (this.stopped) return;
    if (this.status !== "closed") this._setStatus("reconnecting", { attempt: this.attempt });
    const cap = Math.min(BACKOFF_MAX_MS, BACKOFF_MIN_MS * 2 ** this.attempt);
    const delay = BACKOFF_MIN_MS / 2 + Math.random() * cap; // full jitter, never zero
    this.attempt += 1;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this._connectNow(), delay);
  }

  _startHeartbeat() {
    this._stopHeartbeat();
    this.heartbeat = setInterval(() => {
      // Silent too long: the socket is dead even if the OS has not noticed.
      if (Date.now() - this.lastHeard > DEAD_AFTER_MS) this._abandon("silent");
      else this._ping();
    }, HEARTBEAT_MS);
  }

  /** Give up a socket that stopped answering (the OS has not closed it) and reconnect; the
   * outbox goes again on the new one. */
  _abandon(reason) {
    const ws = this.ws;
    this.ws = null;
    this.lastDrop = reason;
    this._stopHeartbeat();
    if (ws) {
      ws.onclose = ws.onmessage = ws.onerror = null;
      try {
        ws.close();
      } catch {
        /* ignore */
      }
    }
    this._scheduleReconnect();
  }

  /** While commands wait for their acks: a socket that says nothing for ACK_QUIET_MS after
   * one went out is given up at once, not after the heartbeat's DEAD_AFTER_MS. */
  _watchAcks() {
    if (this.ackWatch) return;
    this.ackWatch = setInterval(() => {
      if (this.stopped || !this.outbox.size) {
        clearInterval(this.ackWatch);
        this.ackWatch = null;
        return;
      }
      if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return; // the outbox goes on open
      const quiet = Date.now() - Math.max(this.lastHeard, this.sentAt);
      if (quiet > ACK_QUIET_MS) this._abandon("no_ack");
      else if (quiet > ACK_QUIET_MS / 2) this._ping();
    }, ACK_CHECK_MS);
  }

  _stopHeartbeat() {
    clearInterval(this.heartbeat);
    this.heartbeat = null;
  }

  _ping() {
    this._raw({ type: "ping", t: Date.now() });
  }

  _raw(message) {
    const full = { ...message, ...this.auth() };
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(full));
      return true;
    }
    return false;
  }

  /** Send a message that needs no ack (host controls, leave); false if offline. */
  send(message) {
    return this._raw(message);
  }

  /**
   * Send a game command with a fresh id; it is kept and resent until the server acks it.
   * Returns the id, so the page can match the ack or error.
   */
  command(command, id) {
    const message = { type: "command", id, command, ...this.auth() };
    this.outbox.set(id, message);
    if (this._raw({ type: "command", id, command })) this.sentAt = Date.now();
    this._watchAcks();
    return id;
  }

  /** Whether commands are waiting for an ack. */
  get busy() {
    return this.outbox.size > 0;
  }
}

/** A per-seat command id counter that survives reloads (ids must be unique per seat and game). */
export function commandIds(storageKey) {
  const prefix = Math.random().toString(36).slice(2, 8);
  let n = 0;
  try {
    n = Number(localStorage.getItem(storageKey) || 0);
  } catch {
    /* private mode: fall back to a random prefix */
  }
  return () => {
    n += 1;
    try {
      localStorage.setItem(storageKey, String(n));
    } catch {
      /* ignore */
    }
    return `${prefix}-${n}`;
  };
}
