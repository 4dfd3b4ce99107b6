// Saving: the I/O of the core's sync client (Sources/TouchTrackerCore/Sync,
// docs/DESIGN.md "Sync"). The core decides what goes where; this file hands
// it what happened (a frame's changes, a socket's message, an answer) and
// carries out what it says: keep an entry in this browser's copy, send a
// batch, read the drawing. Changes merge by id in the server's order, so
// nothing here ever asks the person to choose between versions.

import { DownloadBroken, loadDocument, openDownload, syncEvent } from '../core/bridge.js';
import { EMPTY_DOCUMENT, api, revisionOf } from '../server/api.js';
import { opening } from './opening.js';
import { fetchDrawing } from './download.js';
import { keeping } from './keeping.js';
import { tell } from './news.js';

const SAVE_DELAY_MS = 250;
const RETRY_DELAY_MS = 3000;
const KEEPALIVE_LIMIT = 60000; // browsers refuse keepalive bodies past 64 KB

export const saver = {
  name: 'default',
  /** The core's word after its last event: `{revision, pending, connection, socket, journal}`. */
  state: { revision: null, pending: 0, connection: 'offline', socket: false, journal: 0 },

  /** The server could not be reached (or stopped answering) last time it was tried. */
  unreachable: false,
  /** Why saving is held: 'unreadable' (the server's drawing could not be opened), 'refused', 'playback', 'renaming'. */
  stopped: null,
  timer: null,
  retryTimer: null,
  /** A request for the core under way (a POST, a read of the drawing). */
  inFlight: null,
  opening: 0,
  live: null,

  get revision() {
    return this.state.revision;
  },
  get offline() {
    return this.unreachable;
  },
  /** Changes go over the live socket (live.js, once it was welcomed), not by POST. */
  get overSocket() {
    return this.state.socket === true;
  },
  dirty() {
    return this.state.pending > 0;
  },

  /** Hands the core one event (`SYNC[name]`, Web/core/bridge.js) and carries out what it answers. */
  run(name, text = null, ...args) {
    if (this.stopped === 'playback') return;
    const answer = syncEvent(name, text, ...args);
    if (answer.error) {
      console.warn(`Sync: ${answer.error}`);
      return answer;
    }
    this.state = answer;
    if (this.overSocket && answer.connection === 'live') this.unreachable = false;
    // Leaving, the entries wait until the request is out (`onPageHide`).
    const kept = this.leaving ?? [];
    for (const effect of answer.effects) {
      if (effect.do === 'keep') kept.push(JSON.stringify(effect.entry));
      else if (this.leaving) {
        if (effect.do === 'rebase') kept.length = 0; // the copy written anew holds them
        this.carryOut(effect);
      }
      else {
        if (kept.length) this.keep(kept.splice(0));
        this.carryOut(effect);
      }
    }
    if (kept.length && !this.leaving) this.keep(kept);
    tell('status', { saver: this });
    return answer;
  },

  carryOut(effect) {
    switch (effect.do) {
      case 'rebase':
        return this.rebase(effect.entries.map((entry) => JSON.stringify(entry)));
      case 'hello':
        return this.live?.hello(effect.since);
      case 'send':
        if (this.leaving) return this.post(effect.key, JSON.stringify(effect.message), true);
        // Sent once the entries before it are kept: a reload then sends it again under the same key.
        return this.writes.then(() => this.send(effect));
      case 'fetch':
        return this.readDrawing();
      case 'pull':
        return this.pull(effect.since);
      case 'replaced':
        return tell('replaced', { name: this.name, kept: effect.kept });
      case 'show':
        return this.live?.show(effect.message);
    }
  },

  /** After each frame with a finished change: the core takes it; it is sent a moment later. */
  collect() {
    this.run('collect');
    this.schedule();
  },

  schedule(delay = SAVE_DELAY_MS) {
    if (this.timer || this.stopped) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.run('flush');
    }, delay);
  },

  /** Sends what waits now; resolves once the server has all of it, or it cannot be reached. */
  async flush() {
    clearTimeout(this.timer);
    this.timer = null;
    if (!this.stopped) this.run('flush');
    for (let waited = 0; this.dirty() && !this.unreachable && !this.stopped && waited < 10000; waited += 50) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  },

  // The server.

  /** Sends a batch: over the socket when it is live, else by POST with its key. */
  send(effect) {
    if (this.stopped === 'playback') return;
    const text = JSON.stringify(effect.message);
    if (this.live?.ready && this.live.send(text)) return;
    if (this.overSocket && !this.live?.ready) return; // waits for the socket's hello
    this.post(effect.key, text);
  },

  async post(key, text, keepalive = false) {
    if (keepalive && text.length > KEEPALIVE_LIMIT) return;
    // The drawing this page saw exists: on a name a rename left, the server says where it went.
    const request = api.append(this.name, key, text, { seen: this.state.revision > 0, keepalive });
    if (keepalive) return request.catch(() => {});
    this.inFlight = request;
    let response;
    try {
      response = await request;
    } catch {
      return this.lost();
    } finally {
      this.inFlight = null;
    }
    const answer = await response.json().catch(() => ({}));
    if (response.ok) {
      this.reached();
      // Over the socket the batch comes back on it too, with its key: the first answer counts.
      this.run('answered', null, answer.revision ?? revisionOf(response));
    } else if (response.status >= 500) {
      this.lost();
    } else if (!(await this.followRename(answer))) {
      this.run('refused');
      this.stopped = 'refused';
      tell('refused', { saver: this, reason: answer.error || response.statusText });
    }
  },

  /** Reads `GET .../changes?since=` for the core: what came before its batch. */
  async pull(since) {
    try {
      const response = await api.changes(this.name, since);
      if (response.status === 410) return this.readDrawing();
      if (!response.ok) return this.lost();
      this.run('pulled', await response.text(), since);
    } catch {
      this.lost();
    }
  },

  /** Reads the server's drawing (the log no longer leads to it, or the revision was unknown) and puts what is pending on top. */
  async readDrawing() {
    if (this.reading) return;
    this.reading = true;
    try {
      const response = await fetchDrawing(this.name);
      if (!response || response.status >= 500) return this.lost();
      if (response.status === 404 && (await this.followRename(await response.json().catch(() => ({}))))) return;
      this.collect(); // finished changes join the pending ones before the drawing is replaced
      let problem = null;
      let revision = 0;
      if (response.ok) {
        revision = revisionOf(response);
        const download = await openDownload(response);
        problem = download.problem;
        this.nextBase = download.document;
      } else {
        problem = await loadDocument(EMPTY_DOCUMENT);
      }
      if (problem) return this.unreadable(problem);
      this.reached();
      this.run('replaced', null, revision);
    } catch (error) {
      if (!(error instanceof DownloadBroken)) throw error;
      this.lost();
    } finally {
      this.reading = false;
    }
  },

  /** The server answered: it is reachable. */
  reached() {
    clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.unreachable = false;
    tell('status', { saver: this });
  },

  /** No server (or it failed): everything waits in this browser; tried again in a while. */
  lost() {
    this.unreachable = true;
    this.run('disconnected');
    if (this.overSocket) return; // the socket reconnects by itself
    this.retryTimer ??= setTimeout(() => {
      this.retryTimer = null;
      this.run('connected');
    }, RETRY_DELAY_MS);
  },
};

Object.assign(saver, opening, keeping);
