// This browser's copy of the open drawing, as the core's sync client asks
// for it (docs/DESIGN.md, "Sync"): entries appended (`keep`), the copy
// written anew on a base (`rebase`), one write after the other, and what a
// page going away leaves in localStorage because IndexedDB cannot be waited
// for then. Mixed into the saver (saver.js), whose `state` and `run` it uses.

import { syncBaseText } from '../core/bridge.js';
import { localCopies } from './local-copy.js';
import { tell } from './news.js';

/** Why this browser would not keep a copy, as the end of a sentence. */
function storageProblem(error) {
  if (error?.name === 'QuotaExceededError') return "this browser's storage is full";
  return `this browser refused a copy (${String(error?.message || error).replace(/\.$/, '')})`;
}

export const keeping = {
  /** This browser's copy of the newest change: 'saved', 'pending', or 'failed' (`localProblem`). */
  local: 'saved',
  localProblem: null,
  writes: Promise.resolve(),
  localWrites: 0,
  /** Entries handed to this browser's copy whose write is not over yet, oldest first. */
  unsettled: [],
  /** Writes of the copy anew (a base) not over yet. */
  rewriting: 0,
  /** The base of this browser's copy to write once the drawing is on screen (`keepShown`). */
  shownCopy: null,
  /** A download's document to take as the copy's base at the next `rebase`, instead of the core's export. */
  nextBase: null,

  /** Appends `entries` to this browser's copy; `then` runs once they are durable. */
  keep(entries, then = null) {
    this.keepShown(); // the base goes first: the entries follow it
    const { name } = this;
    const { revision, pending } = this.state;
    this.unsettled.push(...entries);
    this.queue(
      () => localCopies.append(name, entries, revision, pending),
      () => this.unsettled.splice(0, entries.length),
      then,
    );
  },

  rebase(entries) {
    this.shownCopy = null; // this base replaces it
    const { name } = this;
    const { revision, pending } = this.state;
    const base = this.nextBase;
    this.nextBase = null;
    if (base && pending === 0) {
      // The download just opened is the base: kept once it is on screen (writing 10 MB is no first-paint work).
      this.shownCopy = { name, base, revision };
      return;
    }
    let document;
    try {
      document = base ? null : syncBaseText();
    } catch (error) {
      this.localDone(++this.localWrites, error.message);
      return;
    }
    this.rewriting++;
    this.queue(
      async () => localCopies.put(name, document ?? (await base()), revision, entries, pending),
      () => this.rewriting--,
    );
  },

  /**
   * Queues `work`, a write of this browser's copy, after the ones before it;
   * `settled` runs when it is over, `then` when it succeeded.
   */
  queue(work, settled, then = null) {
    const write = ++this.localWrites;
    this.local = 'pending';
    this.writes = this.writes.then(work).then(
      () => {
        settled();
        then?.();
        this.localDone(write, null);
      },
      (error) => {
        settled();
        this.localDone(write, storageProblem(error));
      },
    );
  },

  localDone(write, problem) {
    if (problem) {
      this.local = 'failed';
      this.localProblem = problem;
      this.copyBroken = true; // entries may be missing: the next change writes it whole
    } else if (write === this.localWrites) {
      this.local = 'saved';
      if (this.copyBroken) {
        this.copyBroken = false;
        this.run('rewrite');
      }
    }
    tell('status', { saver: this });
  },

  /** The opened drawing is on screen (app.js): its download becomes this browser's copy. */
  keepShown() {
    const copy = this.shownCopy;
    if (!copy) return;
    this.shownCopy = null;
    if (copy.name !== this.name) return;
    this.rewriting++;
    this.queue(
      async () => localCopies.put(copy.name, await copy.base(), copy.revision),
      () => this.rewriting--,
    );
  },

  /**
   * The page is going away: the oldest batch goes once more by a request
   * that outlives the page (with its key: appended once). The request goes
   * before this browser's copy is written: an IndexedDB write begun first
   * lost the request in Chromium. The entries not written yet (the batch
   * that names the key among them) are left in localStorage too, which is
   * written at once: the IndexedDB write may never finish, and a batch
   * made again after a reload would go under a new key.
   */
  onPageHide() {
    if (this.stopped) return;
    const kept = [];
    this.leaving = kept;
    try {
      this.run('collect');
      if (this.dirty()) this.run('leaving');
    } finally {
      this.leaving = null;
    }
    if (!kept.length) return;
    const { name } = this;
    const { journal, revision, pending } = this.state;
    const written = !this.rewriting && !this.shownCopy; // the base the entries follow is in IndexedDB
    if (written) localCopies.keepTail(name, [...this.unsettled, ...kept], journal, revision, pending);
    this.keep(kept, () => localCopies.dropTail(name));
  },
};
