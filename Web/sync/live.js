// The live socket (docs/DESIGN.md, "Live sync over WebSocket"): one per open
// drawing. Its frames go to the core's sync client as they come
// (`saver.run('message')`), which answers what to send; presence, renames
// and errors come back to this file to show. A heartbeat both ways finds a
// dead connection within two seconds; the connection comes back by itself
// (tried again within 0.4–1.25 s, with jitter, so that a server back from
// an outage has every page again within about two seconds) and resumes from
// the revision the core builds on.

import { NAME_PATTERN, presenceText } from '../core/bridge.js';
import { forgetPresence, showPresence } from '../paint/presence.js';
import { access } from '../server/access.js';
import { drawingURL } from '../server/api.js';
import { tell } from './news.js';
import { saver } from './saver.js';

const RECONNECT_MIN_MS = 500;
const RECONNECT_MAX_MS = 1000;
const PRESENCE_INTERVAL_MS = 34; // at most 30 a second
const MESSAGE_LIMIT = 1024 * 1024 - 256; // the server's limit; a larger batch goes by POST
const PING_MS = 700;
/** Nothing heard for this long while the page itself kept running: the connection is dead. */
const DEADLINE_MS = 2000;

export const live = {
  socket: null,
  /** 'off', 'connecting', 'syncing' (said hello, the backlog is coming) or 'live'. */
  get status() {
    if (!this.socket) return 'off';
    if (this.socket.readyState !== WebSocket.OPEN) return 'connecting';
    return saver.state.connection === 'live' ? 'live' : 'syncing';
  },
  /** This page's id on the server (its id origin as 8 hex digits): presence and `by` name it. */
  client: '',
  attempts: 0,
  timer: null,
  heartbeat: null,
  heardAt: 0,
  beatAt: 0,
  /** Set while a recording plays back: the page does not connect. */
  paused: false,
  lastPresence: '',
  lastPresenceAt: 0,
  /** Others' batches received, for tests. */
  received: 0,

  get ready() {
    return this.status === 'live';
  },

  start(origin) {
    this.client = (origin >>> 0).toString(16).padStart(8, '0');
    saver.live = this;
    this.paused = false;
    window.addEventListener('offline', () => this.cut());
    window.addEventListener('online', () => {
      if (!this.socket) this.connect();
    });
    this.connect();
  },

  connect() {
    clearTimeout(this.timer);
    this.timer = null;
    if (this.socket || this.paused) return;
    if (navigator.onLine === false) return this.lost();
    const url = new URL(drawingURL(saver.name) + '/live', location.href);
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    let socket;
    try {
      socket = new WebSocket(url);
    } catch {
      return this.lost();
    }
    this.socket = socket;
    socket.onopen = () => {
      if (this.socket !== socket) return;
      this.heard();
      this.heartbeat = setInterval(() => this.beat(socket), PING_MS / 2);
      saver.run('socket_opened');
    };
    socket.onmessage = (event) => {
      if (this.socket !== socket) return;
      this.heard();
      if (typeof event.data === 'string' && event.data.includes('"type":"changes"')) this.received++;
      saver.run('message', event.data);
    };
    socket.onclose = () => {
      if (this.socket === socket) this.lost();
    };
  },

  heard() {
    this.heardAt = performance.now();
  },

  /** Pings the server; a connection silent past the deadline is cut (unless this page itself was held up). */
  beat(socket) {
    const now = performance.now();
    const heldUp = now - this.beatAt > DEADLINE_MS / 2;
    this.beatAt = now;
    if (heldUp) this.heard(); // a long task, a throttled tab: the silence was ours
    if (now - this.heardAt > DEADLINE_MS) return this.cut();
    if (now - this.lastPingAt >= PING_MS && socket.readyState === WebSocket.OPEN) {
      this.lastPingAt = now;
      socket.send('{"type":"ping"}');
    }
  },
  lastPingAt: 0,

  /** The connection is gone (or as good as): drop it, say so, and try again. */
  cut() {
    const socket = this.socket;
    if (!socket) return;
    this.lost();
    socket.close();
  },

  lost() {
    clearInterval(this.heartbeat);
    this.heartbeat = null;
    this.socket = null;
    forgetPresence();
    if (saver.overSocket) saver.unreachable = true;
    saver.run('socket_closed');
    this.retry();
  },

  retry() {
    if (this.timer || this.paused) return;
    const delay = Math.min(RECONNECT_MAX_MS, RECONNECT_MIN_MS * 2 ** this.attempts) * (0.75 + Math.random() / 2);
    this.attempts++;
    this.timer = setTimeout(() => this.connect(), delay);
  },

  /** A recording plays instead of the drawing (ui/recorder.js): no connection until the page opens the drawing again. */
  pause() {
    this.paused = true;
    clearTimeout(this.timer);
    this.timer = null;
    clearInterval(this.heartbeat);
    this.heartbeat = null;
    const socket = this.socket;
    this.socket = null;
    forgetPresence();
    socket?.close();
  },

  /** Closes and reconnects now (the drawing moved, or a recording ended). */
  restart() {
    this.paused = false;
    this.cut();
    clearTimeout(this.timer);
    this.timer = null;
    this.attempts = 0;
    this.connect();
  },

  /** The core's hello, building on revision `since`. */
  hello(since) {
    const socket = this.socket;
    if (!socket || socket.readyState !== WebSocket.OPEN) return;
    // batches: when several messages wait for this page, the server may send them in one frame, as an array.
    const hello = { type: 'hello', since, client: this.client, batches: true };
    const key = access.key(saver.name);
    if (key) hello.key = key;
    socket.send(JSON.stringify(hello));
  },

  /** Sends a batch's message; false when it cannot go on the socket (too large: it goes by POST and comes back here). */
  send(text) {
    if (text.length > MESSAGE_LIMIT || !this.socket) return false;
    this.socket.send(text);
    return true;
  },

  /** A message the core leaves to the page (DESIGN.md, "Live sync over WebSocket"). */
  show(message) {
    switch (message.type) {
      case 'welcome':
        break;
      case 'presence':
        if (message.by !== this.client && Array.isArray(message.lines)) showPresence(message.by, message.lines);
        break;
      case 'leave':
        forgetPresence(message.by);
        break;
      case 'error':
        console.warn(`Live sync: ${message.error}`);
        break;
      case 'renamed':
        this.renamed(message.name, Number(message.shift) || 0);
        break;
    }
  },

  /** The drawing was renamed (from this page or another): follow it there; the server closes this socket. */
  async renamed(name, shift) {
    if (typeof name !== 'string' || !NAME_PATTERN.test(name)) return;
    if (await saver.moveTo(name, shift)) tell('renamed', { name });
  },

  /** After each frame: this page's lines in progress, when they changed, at most 30 times a second. */
  sendPresence(now) {
    // A view link may send nothing: the server would close the socket.
    if (!this.ready || access.readOnly || now - this.lastPresenceAt < PRESENCE_INTERVAL_MS) return;
    const text = presenceText();
    if (text === this.lastPresence) return;
    this.lastPresence = text;
    this.lastPresenceAt = now;
    this.socket.send(`{"type":"presence",${text.slice(1)}`);
  },
};
