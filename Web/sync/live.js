// Drawing together (docs/DESIGN.md, "Live sync over WebSocket"). One socket
// per open drawing: this page's finished changes go out as batches (the
// saver's outbox, with the same Idempotency-Key a POST would carry), other
// people's come in, in the server's order, and go into the core under this
// page's unacknowledged ones (`tt_receive_changes`), so every page ends with
// the server's drawing. Lines in progress go both ways as presence.
//
// The connection comes back by itself (backoff up to 10 s) and resumes from
// the revision this page builds on; while it is down the outbox waits in
// IndexedDB (the saver's copy). A server without the route (or a proxy that
// drops WebSockets) leaves the page saving over HTTP as before.

import { NAME_PATTERN, presenceText, receiveChanges, tt } from '../core/bridge.js';
import { forgetPresence, showPresence } from '../paint/presence.js';
import { showNotice } from '../ui/notice.js';
import { access } from './access.js';
import { saver } from './saver.js';

const RECONNECT_MIN_MS = 500;
const RECONNECT_MAX_MS = 10000;
const PRESENCE_INTERVAL_MS = 34; // at most 30 a second
const MESSAGE_LIMIT = 1024 * 1024 - 256; // the server's limit; a larger batch goes by POST

export const live = {
  socket: null,
  /** 'off', 'connecting', 'syncing' (said hello, the backlog is coming) or 'live'. */
  status: 'off',
  /** This page's id on the server (its id origin as 8 hex digits): presence and `by` name it. */
  client: '',
  /** Whether this page ever drew live: then saving waits for the connection instead of POSTing with If-Match. */
  used: false,
  attempts: 0,
  timer: null,
  /** Set while a recording plays back: the page does not connect. */
  paused: false,
  /** The batch sent over the socket, resolved by its acknowledgement (or the connection closing). */
  waiting: null,
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
    this.connect();
  },

  connect() {
    clearTimeout(this.timer);
    this.timer = null;
    if (this.socket || this.paused) return;
    const url = new URL(saver.url() + '/live', location.href);
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    let socket;
    try {
      socket = new WebSocket(url);
    } catch {
      this.retry();
      return;
    }
    this.socket = socket;
    this.status = 'connecting';
    socket.onopen = () => this.hello(socket);
    socket.onmessage = (event) => this.receive(event.data);
    socket.onclose = () => this.closed(socket);
  },

  /** Says where this page is, once the saver knows a revision it builds on (not while a whole save is on its way). */
  hello(socket) {
    if (this.socket !== socket || socket.readyState !== WebSocket.OPEN) return;
    if (saver.revision === null || saver.needsWhole || saver.stopped || saver.inFlight) {
      setTimeout(() => this.hello(socket), 300);
      return;
    }
    this.status = 'syncing';
    // batches: when several messages wait for this page, the server may send them in one frame, as an array.
    const hello = { type: 'hello', since: saver.revision, client: this.client, batches: true };
    const key = access.key(saver.name);
    if (key) hello.key = key;
    socket.send(JSON.stringify(hello));
  },

  closed(socket) {
    if (this.socket !== socket) return;
    const wasLive = this.status === 'live';
    this.drop();
    if (wasLive) saver.setOffline(true, true);
    this.retry();
  },

  /** Forgets the connection: no socket, nobody's presence, and the batch in flight released (it stays in the outbox with its key: sent again after `hello`, appended once). */
  drop() {
    this.socket = null;
    this.status = 'off';
    forgetPresence();
    this.release();
  },

  retry() {
    if (this.timer) return;
    const delay = Math.min(RECONNECT_MAX_MS, RECONNECT_MIN_MS * 2 ** this.attempts) * (0.75 + Math.random() / 2);
    this.attempts++;
    this.timer = setTimeout(() => this.connect(), delay);
  },

  /** A recording plays instead of the drawing (ui/recorder.js): no connection until the page opens the drawing again. */
  pause() {
    this.paused = true;
    clearTimeout(this.timer);
    this.timer = null;
    const socket = this.socket;
    this.drop();
    socket?.close();
  },

  /** Closes and reconnects now (the drawing changed, or the network is back). */
  restart() {
    const socket = this.socket;
    this.drop();
    if (socket) socket.close();
    this.attempts = 0;
    this.connect();
  },

  release() {
    const waiting = this.waiting;
    this.waiting = null;
    waiting?.();
  },

  receive(text) {
    let message;
    try {
      message = JSON.parse(text);
    } catch {
      return;
    }
    if (Array.isArray(message)) {
      for (const one of message) if (one && typeof one === 'object') this.handle(one);
    } else if (message && typeof message === 'object') {
      this.handle(message);
    }
  },

  /** One server message (DESIGN.md, "Live sync over WebSocket"). */
  handle(message) {
    switch (message.type) {
      case 'changes':
        this.changes(message);
        break;
      case 'ack':
        this.acknowledged(message.key, message.revision);
        break;
      case 'welcome':
        this.status = 'live';
        this.used = true;
        this.attempts = 0;
        saver.revision = message.revision;
        saver.setOffline(false);
        saver.save(); // what waited for the connection
        break;
      case 'reset':
        this.reset(message.revision);
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
    if (!NAME_PATTERN.test(name)) return;
    const socket = this.socket;
    this.drop();
    socket?.close();
    const moved = await saver.moveTo(name, shift);
    this.attempts = 0;
    this.connect();
    if (moved) showNotice(`This drawing was renamed “${name}”`);
  },

  changes(message) {
    if (message.key && saver.batch?.key === message.key) {
      // This page's own batch, from the log (its acknowledgement was lost with a connection).
      this.acknowledged(message.key, message.revision);
      return;
    }
    const records = message.changes.map((change) => JSON.stringify(change));
    const problem = receiveChanges(`{"changes":[${records.join(',')}]}`);
    if (problem) {
      // The drawing here can no longer follow the server's: read it again.
      console.warn(`Live sync: a change could not be applied (${problem}); reading the drawing again.`);
      this.reset(null);
      return;
    }
    this.received++;
    saver.keepRemote(records, message.revision);
  },

  acknowledged(key, revision) {
    if (saver.batch?.key !== key) return;
    saver.acknowledge(revision);
    this.release();
  },

  /** The log no longer leads from this page's revision to the server's drawing: open it again, then resume. */
  async reset(revision) {
    const socket = this.socket;
    this.status = 'syncing';
    while (saver.inFlight) await saver.inFlight;
    if (revision === null || revision !== saver.revision) await saver.open(saver.name);
    if (socket && this.socket === socket) this.hello(socket);
  },

  /** Sends the saver's batch (see `saver.batchRequest`); resolves once acknowledged or the connection closed. */
  sendBatch() {
    const request = saver.batchRequest();
    if (saver.localChange !== `${saver.name} ${saver.batch.change}`) saver.keepChange();
    const done = new Promise((resolve) => (this.waiting = resolve));
    const text = `{"type":"changes","key":"${saver.batch.key}",${request.body.slice(1)}`;
    if (text.length <= MESSAGE_LIMIT) {
      this.socket.send(text);
    } else {
      // Too large for one message: POST it; the socket brings it back in its place, with its key.
      fetch(saver.url() + '/changes', request)
        .then(async (response) => {
          if (response.ok || response.status >= 500) return;
          const answer = await response.json().catch(() => ({}));
          saver.batch = null;
          saver.refused(answer.error || response.statusText);
          this.release();
        })
        .catch(() => {});
    }
    return done;
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
