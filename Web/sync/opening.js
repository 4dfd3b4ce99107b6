// Opening a drawing and following it when it moves: methods of `saver`
// (sync/saver.js), mixed into it there. The server's drawing opens with
// this browser's unsent changes on top (the core replays the copy's
// journal: the sync event `restore`); without a server, this browser's copy opens.

import { DownloadBroken, NAME_PATTERN, loadDocument, openDownload } from '../core/bridge.js';
import { access } from '../server/access.js';
import { EMPTY_DOCUMENT, revisionOf } from '../server/api.js';
import { tell } from './news.js';
import { fetchDrawing, localCopySummary, rememberOpened, takeStarted } from './download.js';
import { localCopies } from './local-copy.js';

export const opening = {

  /** Opens drawing `name`: the server's, with this browser's unsent changes on top; this browser's copy without a server. */
  async open(name) {
    this.opening++;
    try {
      return await this.openDrawing(name);
    } finally {
      this.opening--;
    }
  },

  async openDrawing(name) {
    this.name = name;
    rememberOpened(name);
    this.stopped = this.stopped === 'playback' ? null : this.stopped;
    const started = takeStarted(name);
    const reading = this.readCopy(started?.local ?? localCopySummary(name));
    const response = (await started?.response) ?? (await fetchDrawing(name));
    if (response && (response.ok || response.status === 404)) {
      let problem;
      let revision = 0;
      if (response.ok) {
        revision = revisionOf(response);
        let download;
        try {
          download = await openDownload(response);
        } catch (error) {
          if (!(error instanceof DownloadBroken)) throw error;
          return this.openOffline(await reading);
        }
        problem = download.problem;
        this.nextBase = download.document;
      } else {
        const answer = await response.json().catch(() => ({}));
        if (this.renamedTo(answer)) {
          const { renamedTo: to, shift } = answer;
          if (!(await localCopies.summary(to).catch(() => null))?.dirty) {
            await localCopies.move(name, to, Number(shift) || 0).catch(() => {});
          }
          this.followAddress(name, to);
          tell('renamed', { name: to });
          return this.openDrawing(to);
        }
        problem = await loadDocument(EMPTY_DOCUMENT);
      }
      if (problem) return this.unreadable(problem);
      this.reached();
      const summary = await reading;
      const copy = summary?.dirty ? await this.readCopy(localCopies.get(name)) : null;
      if (!copy || !(await this.restore(copy, revision))) this.run('opened', null, revision);
      this.run('connected');
    } else {
      await this.openOffline(await reading);
    }
  },

  /** What `read` (a read of this browser's copies) answers, or null, saying so, when they cannot be read. */
  async readCopy(read) {
    try {
      return await read;
    } catch (error) {
      tell('copies-unreadable', { message: error.message });
      return null;
    }
  },

  /** No server: this browser's copy opens, and what is drawn waits in it until the server is back. */
  async openOffline(summary) {
    const copy = summary ? await this.readCopy(localCopies.get(summary.name)) : null;
    const problem = await loadDocument(copy?.document ?? EMPTY_DOCUMENT);
    if (copy && problem) {
      await localCopies.rescue(copy, problem).catch(() => {});
      tell('copy-aside', { name: this.name, problem, text: copy.document, shown: false });
    }
    if (!copy || problem || !(await this.restore(copy, -1))) this.run('opened', null, -1);
    this.lost();
  },

  /**
   * Puts this browser's copy's journal after the drawing just opened (the
   * server's at `serverRevision`, or the copy's base with -1). A copy the
   * core cannot read is kept aside for download; false then.
   */
  async restore(copy, serverRevision) {
    const answer = this.run('restore', `{"entries":[${copy.entries.join(',')}]}`, copy.baseRevision ?? -1, serverRevision);
    if (!answer?.error) return true;
    const text = copy.entries.length === 1 && copy.entries[0].startsWith('{"document":')
      ? copy.entries[0].slice('{"document":'.length, -1)
      : JSON.stringify(copy);
    await localCopies.rescue({ ...copy, document: text }, answer.error).catch(() => {});
    tell('copy-aside', { name: this.name, problem: answer.error, text, shown: true });
    return false;
  },

  /** The server's drawing could not be opened: nothing drawn here is saved over it. */
  unreadable(problem) {
    this.stopped = 'unreadable';
    tell('unreadable', { saver: this, problem });
  },

  /** The address and a share link's key name the drawing `to` now, not `from`. */
  followAddress(from, to) {
    const url = new URL(location.href);
    url.searchParams.set('drawing', to);
    history.replaceState(history.state, '', url);
    access.moveKey(from, to);
  },

  /** Whether a 404 or 409 `answer` says the drawing was renamed (to a page that missed it). */
  renamedTo(answer) {
    return typeof answer?.renamedTo === 'string' && NAME_PATTERN.test(answer.renamedTo) && answer.renamedTo !== this.name;
  },

  async followRename(answer) {
    if (!this.renamedTo(answer)) return false;
    await this.moveTo(answer.renamedTo, Number(answer.shift) || 0);
    tell('renamed', { name: answer.renamedTo });
    return true;
  },

  /**
   * The drawing is called `name` on the server now, its revisions moved up
   * by `shift`: sync, this browser's copy, the address and the socket
   * follow; nothing pending is dropped. False if the page was there already.
   */
  async moveTo(name, shift = 0) {
    const old = this.name;
    if (name === old) return false;
    this.name = name;
    rememberOpened(name);
    this.run('renamed', null, shift);
    this.followAddress(old, name);
    await this.writes;
    await localCopies.move(old, name, shift).catch(() => {});
    if (this.live && !this.live.paused && (this.live.socket || this.live.timer)) this.live.restart();
    else this.run('connected');
    return true;
  },
};
