// HTTP calls and the game's WebSocket, which reconnects by itself with exponential
// backoff after a network drop or a server restart. The server sends the whole state on
// every (re)connection, so nothing is lost in between.

import { currentLang } from "./i18n.js";

/** @typedef {import("./messages").GameMessage} GameMessage */
/** @typedef {import("./messages").GameRequest} GameRequest */

/**
 * What a game's socket tells the table: each message, whether it is online, and a close
 * after which it does not reconnect by itself (its code).
 * @typedef {object} SocketHandlers
 * @property {(message: GameMessage) => void} onMessage
 * @property {(online: boolean) => void} onStatus
 * @property {(code: number) => void} onFatal
 */

// The signed-in session's CSRF token (account.js sets it): every request that changes
// something carries it, since the session's cookie comes with every request.
/** @type {string | null} */
let csrfToken = null;

/** @param {string | null | undefined} token */
export function setCsrfToken(token) {
  csrfToken = token || null;
}

// The body the server answers with (JSON, or text for a record): its type is the
// caller's to say, as the variable it goes to (`T`; unknown unless said).
/**
 * @template [T=unknown]
 * @param {string} path
 * @param {{ method?: string, token?: string, body?: unknown }} [options]
 * @returns {Promise<T>}
 */
export async function api(path, { method = "GET", token, body } = {}) {
  /** @type {Record<string, string>} */
  const headers = { "X-Hanamikoji-Lang": currentLang() };
  if (token) headers.Authorization = `Bearer ${token}`;
  if (csrfToken && method !== "GET") headers["X-CSRF-Token"] = csrfToken;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const response = await fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    cache: "no-store",
  });
  const type = response.headers.get("content-type") || "";
  const data = type.includes("application/json") && !path.includes("format=json") ? await response.json() : await response.text();
  if (!response.ok) {
    const message = typeof data === "object" && data && data.message ? data.message : `HTTP ${response.status}`;
    throw new Error(message);
  }
  return data;
}

const BAD_SEAT = 4401;
const POLICY = 4403;
const NO_GAME = 4404;
// Newer pages opened the same seat (the server keeps 4 per seat): this one stops, and
// does not reconnect by itself, or pages at one seat would take turns closing each other.
export const REPLACED = 4409;

export class GameSocket {
  /**
   * @param {string} gameId
   * @param {string} token
   * @param {SocketHandlers} handlers
   */
  constructor(gameId, token, { onMessage, onStatus, onFatal }) {
    this.gameId = gameId;
    this.token = token;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.onFatal = onFatal;
    /** @type {WebSocket | null} */
    this.ws = null;
    this.attempt = 0;
    this.closed = false;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.retryTimer = undefined;
    /** @type {ReturnType<typeof setInterval> | undefined} */
    this.pingTimer = undefined;
    this.lastHeard = 0;
    this.online = false;
  }

  connect() {
    if (this.closed) return;
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(`${scheme}//${location.host}${this.path()}`);
    this.ws = ws;
    ws.onopen = () => {
      // Without a token, the server opens the seat the session's player holds.
      /** @type {GameRequest} */
      const hello = this.token ? { type: "hello", token: this.token, lang: currentLang() } : { type: "hello", lang: currentLang() };
      ws.send(JSON.stringify(hello));
      this.lastHeard = Date.now();
      this.startPings();
    };
    ws.onmessage = (event) => {
      this.lastHeard = Date.now();
      /** @type {GameMessage} */
      let message;
      try {
        message = JSON.parse(event.data);
      } catch (e) {
        return;
      }
      if (message.type === "state" && !this.online) {
        this.attempt = 0;
        this.setOnline(true);
      }
      if (message.type !== "pong") this.onMessage(message);
    };
    ws.onclose = (event) => {
      if (this.ws !== ws) return;
      this.stopPings();
      this.setOnline(false);
      if ([BAD_SEAT, POLICY, NO_GAME, REPLACED].includes(event.code)) {
        this.closed = true;
        this.onFatal(event.code);
        return;
      }
      this.scheduleReconnect();
    };
    ws.onerror = () => { /* onclose follows and reconnects */ };
  }

  // Connect again after a fatal close (the player asks for this page's seat back).
  reopen() {
    this.closed = false;
    this.attempt = 0;
    this.connect();
  }

  // Where the socket connects: a seat's game socket (a spectator's, in watch.js).
  path() {
    return `/ws/${encodeURIComponent(this.gameId)}`;
  }

  scheduleReconnect() {
    if (this.closed) return;
    clearTimeout(this.retryTimer);
    const delay = Math.min(10000, 400 * 2 ** this.attempt) * (0.75 + Math.random() * 0.5);
    this.attempt = Math.min(this.attempt + 1, 8);
    this.retryTimer = setTimeout(() => this.connect(), delay);
  }

  // A half-open connection (a laptop waking up, a dropped network) sends no close event:
  // pings that go unanswered for a while close it, and the reconnection starts.
  startPings() {
    this.stopPings();
    this.pingTimer = setInterval(() => {
      if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return;
      if (Date.now() - this.lastHeard > 45000) {
        this.ws.close();
        return;
      }
      this.ws.send(JSON.stringify({ type: "ping" }));
    }, 15000);
  }

  stopPings() {
    clearInterval(this.pingTimer);
    this.pingTimer = undefined;
  }

  /** @param {boolean} online */
  setOnline(online) {
    if (this.online === online) return;
    this.online = online;
    this.onStatus(online);
  }

  /**
   * @param {GameRequest} message
   * @returns {boolean}
   */
  send(message) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(message));
    return true;
  }

  close() {
    this.closed = true;
    clearTimeout(this.retryTimer);
    this.stopPings();
    // Forgotten before it closes: its close event then tells nobody the page went offline.
    const ws = this.ws;
    this.ws = null;
    if (ws) ws.close();
  }
}
