// Saving. Every finished change is kept in this browser at once (IndexedDB,
// sync/local-copy.js) and sent to the server within SAVE_DELAY_MS, with
// If-Match naming the revision it builds on: as its change records
// (POST .../changes, a few hundred bytes a line) when the server's revision
// plus the records is exactly this drawing, else as the whole document (PUT). A 409 stops saving and asks:
// nothing either side wrote is thrown away unless the person says so.
// Unreachable server: keep trying; the browser's copy survives a closed tab
// and is offered again on the next visit.
//
// Two rules keep a drawing from being emptied: a document that could not be
// opened never counts as a change (nothing is saved because a load failed),
// and the banner says "saved in this browser" only once the copy is durable.

import {
  DownloadBroken, NAME_PATTERN, documentText, loadDocument, openDownload, takeChanges, tt,
} from '../core/bridge.js';
import { download, hideBanner, showBanner } from '../ui/banner.js';
import { showNotice } from '../ui/notice.js';
import { access } from './access.js';
import { decisions } from './decisions.js';
import { drawingURL, fetchDrawing, localCopySummary, takeStarted } from './download.js';
import { localCopies } from './local-copy.js';

const SAVE_DELAY_MS = 250;
const RETRY_DELAY_MS = 3000;
const KEEPALIVE_LIMIT = 60000; // browsers refuse keepalive bodies past 64 KB
const MAX_KEPT_CHANGES = 1000; // then this browser's copy is written whole again
const EMPTY = '{"format":"touchtracker","version":1,"lines":[],"circles":[]}';

/** Why this browser would not keep a copy, as the end of a sentence. */
function storageProblem(error) {
  if (error?.name === 'QuotaExceededError') return "this browser's storage is full";
  return `this browser refused a copy (${String(error?.message || error).replace(/\.$/, '')})`;
}

/** A download's `document()`: its text, or its bytes (a Blob) read as text. */
const textOf = async (document) => (typeof document === 'string' ? document : document.text());

function revisionOf(response) {
  const match = /(\d+)/.exec(response.headers.get('ETag') || response.headers.get('X-Revision') || '');
  return match ? Number(match[1]) : null;
}

export const saver = {
  name: 'default',
  /** The server revision the drawing builds on: 0 for none yet, null when unknown (offline). */
  revision: null,
  savedChange: 0, // tt_change_count() when the server last had the drawing
  inFlight: null,
  timer: null,
  /** Why saving stopped until the person decides: 'conflict' (409), 'refused' (another 4xx), 'unreadable'. */
  stopped: null,
  offline: false,
  offlineReason: '',
  /** This browser's copy of the latest change: 'saved', 'pending', or 'failed' (`localProblem` says why). */
  local: 'saved',
  localProblem: null,
  localWrites: 0,
  localChange: null, // `${name} ${change}` of the newest copy written
  /** The server's copy just opened, kept once it is on screen (`keepOnceShown`), or null. */
  shownCopy: null,
  /** Change records (docs/DESIGN.md, "Changes") the server does not have yet, oldest first. */
  outbox: [],
  /** The records alone do not bring the server's revision to this drawing (it was opened from this browser's copy, say): send the whole document. */
  needsWhole: false,
  /** The records in flight and the Idempotency-Key they went with, kept until acknowledged so a retry sends exactly them again. */
  batch: null,
  /** Records not yet in this browser's copy, and how many the copy holds after its whole document. */
  unkept: [],
  keptChanges: 0,
  /** A write of records failed: the copy may lack some, so the next one writes the whole document. */
  localBroken: true,
  url(name = this.name) {
    return drawingURL(name);
  },
  dirty() {
    return tt.tt_change_count() !== this.savedChange;
  },
  /** Moves the core's new change records into the outbox and the list for this browser's copy (after every frame that changed something). */
  collect() {
    const records = takeChanges();
    for (const record of records) {
      this.outbox.push(record);
      this.unkept.push(record);
    }
  },
  /** The drawing was replaced as a whole: older records no longer apply to it. */
  startOver(needsWhole) {
    takeChanges();
    // The drawing as it is becomes the base: the core stops keeping its changes aside for others'.
    tt.tt_confirm_changes(0x7fffffff);
    this.outbox = [];
    this.unkept = [];
    this.batch = null;
    this.needsWhole = needsWhole;
    this.localBroken = true; // until this browser's copy is written whole, or is what was opened
  },

  /**
   * The server's copy just opened (`document()`: its text, or its bytes as a
   * Blob) is kept in this browser once it is on screen (`keepShown`): writing
   * 10 MB to IndexedDB (and making the Blob) took ~60–90 ms from the first
   * paint of 100k lines, and the copy only serves opening it offline. Kept
   * only if nothing was written here meanwhile: a change made first writes
   * the whole drawing itself (the copy is not yet what was opened).
   */
  keepOnceShown(document) {
    this.shownCopy = { document, name: this.name, writes: this.localWrites };
  },

  /** The opened drawing is on screen (app.js, once nothing is left to paint): its copy is kept now. */
  keepShown() {
    const copy = this.shownCopy;
    if (!copy) return;
    this.shownCopy = null;
    if (copy.name === this.name && copy.writes === this.localWrites) this.keepLocal(copy.document(), false);
  },

  /**
   * Keeps `text` in this browser (it holds every change so far; a Blob of
   * its bytes, as a download leaves it, is kept as it is); the banner
   * follows whether that worked.
   */
  keepLocal(text, dirty) {
    if (this.stopped === 'playback') return Promise.resolve(); // a recording plays: the core holds its drawing, not this one
    const write = ++this.localWrites;
    this.local = 'pending';
    this.localChange = `${this.name} ${tt.tt_change_count()}`;
    this.unkept = [];
    this.keptChanges = 0;
    this.localBroken = false;
    const record = { name: this.name, document: text, revision: this.revision, dirty, savedAt: Date.now() };
    return localCopies.put(record).then(
      (late) => this.localDone(write, null, late),
      (error) => this.localDone(write, storageProblem(error)),
    );
  },
  localDone(write, problem, late = false) {
    // Changes that did not reach the copy (or went with a late whole write) would be missing: write it whole next time.
    if (problem || late) this.localBroken = true;
    if (late && write !== this.localWrites) {
      this.keepChange(true); // entries written after it went with it: write the drawing as it is now
      return;
    }
    if (write !== this.localWrites) return; // a newer copy is on its way
    this.local = problem ? 'failed' : 'saved';
    this.localProblem = problem;
    if (this.offline) this.showOffline();
  },
  /**
   * Keeps the newest changes in this browser unless they are kept already
   * (or `again`, for a new revision): as their records after the copy's,
   * a few hundred bytes each; as the whole document when the copy missed
   * some or holds many records already (then reading it would replay them all).
   */
  keepChange(again = false) {
    if (this.stopped === 'playback') return;
    this.collect();
    if (!again && this.localChange === `${this.name} ${tt.tt_change_count()}`) return;
    if (this.localBroken || this.keptChanges + this.unkept.length > MAX_KEPT_CHANGES) {
      try {
        this.keepLocal(documentText(), true);
      } catch (error) {
        this.localDone(++this.localWrites, error.message);
      }
      return;
    }
    const write = ++this.localWrites;
    this.local = 'pending';
    this.localChange = `${this.name} ${tt.tt_change_count()}`;
    const records = this.unkept;
    this.unkept = [];
    this.keptChanges += records.length;
    localCopies.addChanges(this.name, records, this.revision).then(
      () => this.localDone(write, null),
      (error) => this.localDone(write, storageProblem(error)),
    );
  },

  /**
   * The summary of this browser's copy of the drawing (`localCopySummary`;
   * `read`: that read, if started already), or null when there is none or
   * the copies cannot be read.
   */
  readLocal(read = localCopySummary(this.name)) {
    return this.copyOrNull(read);
  },

  /** The copy `summary` stands for, with its document (`localCopies.get`), or null. */
  wholeLocal(summary) {
    return summary ? this.copyOrNull(localCopies.get(summary.name)) : null;
  },

  /** The copy `summary` stands for, whole, if it holds something unsaved; else null. */
  unsavedLocal(summary) {
    return summary?.dirty ? this.wholeLocal(summary) : null;
  },

  /** What `read` answers, or null, saying so, when this browser's copies cannot be read. */
  async copyOrNull(read) {
    try {
      return await read;
    } catch (error) {
      showBanner(`This browser's copies cannot be read (${error.message}); opening the server's.`, 'warning',
        [['OK', hideBanner]]);
      return null;
    }
  },

  /** Opens of the drawing under way (`open`): meanwhile a recording may not take the screen. */
  opening: 0,

  /** Opens the drawing: the server's copy, or this browser's unsaved one. */
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
    // The download and the read of this browser's copy the page started first (download.js). The
    // copy is read while the core reads the download (on a first visit IndexedDB takes ~0.1 s to
    // answer: it creates the database), and only its summary: a clean copy is not needed when the
    // server answers, and an unsaved one (rare) is read whole once both are in.
    const started = takeStarted(name);
    const reading = this.readLocal(started?.local);
    // A download that found no server is tried once more now.
    const response = (await started?.response) ?? (await fetchDrawing(name));
    if (response && response.ok) {
      const revision = revisionOf(response);
      let download;
      try {
        download = await openDownload(response);
      } catch (error) {
        if (!(error instanceof DownloadBroken)) throw error;
        // Nothing was opened from it: as when the server cannot be reached, and tried again.
        return this.openOffline(await this.wholeLocal(await reading), null);
      }
      const local = await this.unsavedLocal(await reading);
      // Something unsaved here opens instead, unless it is the server's drawing itself.
      if (local?.dirty && local.document !== (await textOf(download.document())) && (await this.openLocal(local))) {
        if (local.revision === revision) this.markChanged();
        else this.showConflict(revision);
        return;
      }
      if (!this.opened(download.problem, revision)) return;
      this.keepOnceShown(download.document);
      this.setOffline(false);
    } else if (response && response.status === 404) {
      const local = await this.unsavedLocal(await reading);
      const answer = await response.json().catch(() => ({}));
      if (this.renamedTo(answer)) {
        // Renamed while this page was away: this browser's copy, the address and the key follow.
        const { renamedTo: to, shift } = answer;
        if (!(await localCopies.summary(to).catch(() => null))?.dirty) {
          await localCopies.move(name, to, Number(shift) || 0).catch(() => {});
        }
        this.followAddress(name, to);
        showNotice(`This drawing was renamed “${to}”`);
        return this.open(to);
      }
      if (local?.dirty && (await this.openLocal(local))) this.markChanged();
      else await this.openServer(null, 0);
      this.setOffline(false);
    } else {
      await this.openOffline(await this.wholeLocal(await reading), response);
    }
  },

  /**
   * The server could not be reached (`response` null), failed, or its
   * download broke off: shows what this browser has and saves it when the
   * server is back.
   */
  async openOffline(local, response) {
    const opened = local && (await this.openLocal(local));
    if (opened && local.dirty) this.markChanged();
    // A clean copy is the server's drawing at the copy's revision: what is
    // drawn on it now is sent as changes after that revision once the
    // server is back (it was sent whole with no revision, and met a
    // conflict with the very drawing it was opened from). Without a copy
    // the revision is unknown until the server answers; then its copy is opened.
    else if (!opened) this.revision = null;
    this.setOffline(true, !response);
    this.schedule(RETRY_DELAY_MS);
  },

  /** Opens this browser's copy; if the core refuses it, keeps it aside for download instead. */
  async openLocal(local) {
    const problem = await loadDocument(local.document);
    if (!problem) {
      this.revision = local.revision;
      this.savedChange = tt.tt_change_count();
      this.startOver(true);
      // What was opened is this browser's copy: later changes go after its records.
      this.localBroken = false;
      this.keptChanges = local.changeCount ?? 0;
      this.localChange = `${this.name} ${tt.tt_change_count()}`;
      return true;
    }
    let kept = true;
    await localCopies.rescue(local, problem).catch(() => (kept = false));
    const blob = () => new Blob([local.document], { type: 'application/json' });
    showBanner(
      `This browser's unsaved copy of “${this.name}” could not be opened: ${problem}.` +
        (kept ? ' It is kept aside; the saved drawing is shown.' : ' The saved drawing is shown.'),
      'warning',
      [['Download the copy', () => download(blob(), `${this.name}-unsaved.json`)], ['OK', hideBanner]],
    );
    return false;
  },

  /**
   * Opens the server's copy (null: a new drawing). If the core refuses it,
   * nothing here may be saved over it: saving stops, and whatever is drawn
   * is kept in this browser with no revision, so it meets a conflict later.
   */
  async openServer(text, revision) {
    return this.opened(await loadDocument(text ?? EMPTY), revision);
  },

  /** The server's copy at `revision` was opened (problem null) or refused (see `openServer`); true if opened. */
  opened(problem, revision) {
    this.savedChange = tt.tt_change_count();
    if (!problem) {
      this.revision = revision;
      this.startOver(false);
      return true;
    }
    this.revision = null;
    this.stopped = 'unreadable';
    showBanner(`Could not open “${this.name}”: ${problem}. Nothing drawn here is saved over it.`, 'warning',
      [['Save mine as a copy', () => this.saveAsCopy()]]);
    return false;
  },

  /** The address and a share link's key name the drawing `to` now, not `from`. */
  followAddress(from, to) {
    const url = new URL(location.href);
    url.searchParams.set('drawing', to);
    history.replaceState(history.state, '', url);
    access.moveKey(from, to);
  },

  /**
   * Whether a 404 or 409 `answer` says the drawing was renamed (the server
   * says so to a page that missed the rename: offline, or its socket down).
   */
  renamedTo(answer) {
    return typeof answer?.renamedTo === 'string' && NAME_PATTERN.test(answer.renamedTo) && answer.renamedTo !== this.name;
  },

  /** A save met a rename this page missed: follow it and save there (the batch's key moved with the drawing). */
  async followRename(answer) {
    if (!this.renamedTo(answer)) return false;
    await this.moveTo(answer.renamedTo, Number(answer.shift) || 0);
    showNotice(`This drawing was renamed “${answer.renamedTo}”`);
    this.schedule(0);
    return true;
  },

  /**
   * The drawing is called `name` on the server now (renamed from this page
   * or another: docs/DESIGN.md, "Renaming"), its revisions moved up by
   * `shift`: saving, this browser's copy, the address, a share link's key
   * and the live socket follow it. Nothing drawn is dropped: unsent records
   * stay in the outbox (their Idempotency-Keys moved with the drawing) and
   * the copy is written whole under the new name before the old one goes.
   * False if the page was there already.
   */
  async moveTo(name, shift = 0) {
    const old = this.name;
    if (name === old) return false;
    this.name = name;
    if (this.revision !== null) this.revision += shift;
    this.followAddress(old, name);
    if (this.live && !this.live.paused && (this.live.socket || this.live.timer)) this.live.restart();
    if (this.stopped !== 'playback') {
      let text = null;
      try {
        text = documentText();
      } catch {
        // nothing this page could load again: the old copy stays where it is
      }
      if (text !== null) {
        await this.keepLocal(text, this.dirty() || this.outbox.length > 0 || this.needsWhole);
        if (this.local === 'saved') await localCopies.remove(old).catch(() => {});
      }
    }
    this.schedule();
    return true;
  },

  /** The drawing differs from the server's even though the core's change count did not move. */
  markChanged() {
    this.savedChange = -1;
    this.needsWhole = true;
    this.schedule();
  },

  schedule(delay = SAVE_DELAY_MS) {
    if (this.timer || this.stopped) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.save();
    }, delay);
  },

  /** Saves now if needed; resolves when the save (or the one in flight) is done. */
  async flush() {
    clearTimeout(this.timer);
    this.timer = null;
    while (this.inFlight) await this.inFlight;
    if (this.dirty() || this.revision === null) await this.save();
  },

  save() {
    if (this.inFlight || this.stopped) return this.inFlight;
    let work;
    if (this.dirty()) work = this.put();
    else if (this.revision === null) work = this.open(this.name); // opened offline: fetch the server's copy
    else return null;
    this.inFlight = work.finally(() => {
      this.inFlight = null;
      if (this.dirty() && !this.stopped) this.schedule(this.offline ? RETRY_DELAY_MS : SAVE_DELAY_MS);
    });
    return this.inFlight;
  },

  async put() {
    this.collect();
    if (!this.needsWhole && this.revision !== null && this.outbox.length > 0) return this.post();
    const change = tt.tt_change_count();
    const sent = this.outbox.length;
    let text;
    try {
      text = documentText();
    } catch (error) {
      // Nothing to send that this page could load again: send nothing.
      showBanner(`Could not save “${this.name}”: ${error.message}.`, 'warning', [['OK', hideBanner]]);
      return;
    }
    if (this.localChange !== `${this.name} ${change}`) this.keepLocal(text, true);
    try {
      if (this.revision === null && !(await this.learnRevision(text, change, sent))) return;
      const response = await fetch(this.url(), {
        method: 'PUT',
        headers: access.headers(this.name, { 'Content-Type': 'application/json', 'If-Match': `"${this.revision}"` }),
        body: text,
      });
      if (response.ok) {
        const body = await response.json().catch(() => ({}));
        this.revision = body.revision ?? revisionOf(response);
        this.savedChange = change;
        // The document had every record taken before it; later ones build on this revision.
        this.outbox.splice(0, sent);
        tt.tt_confirm_changes(sent);
        this.batch = null;
        this.needsWhole = false;
        // Changes made meanwhile are kept already; keep them, on the new revision.
        if (this.dirty()) this.keepChange(true);
        else this.keepLocal(text, false);
        this.setOffline(false);
      } else if (response.status === 409 || response.status === 412) {
        const body = await response.json().catch(() => ({}));
        if (await this.followRename(body)) return;
        await this.conflictUnlessSame(text, change, sent, body.revision);
      } else if (response.status >= 500) {
        this.setOffline(true, false);
      } else {
        const body = await response.json().catch(() => ({}));
        this.refused(body.error || response.statusText);
      }
    } catch {
      this.setOffline(true, true);
    }
  },

  /**
   * The POST of the batch in flight: the outbox's first records, with the
   * Idempotency-Key they keep until acknowledged (a new batch of every
   * record so far when none is in flight).
   */
  batchRequest() {
    this.batch ??= { key: crypto.randomUUID(), count: this.outbox.length };
    // What the batch holds when it goes: whether it is every change so far, and the change count then.
    this.batch.change = tt.tt_change_count();
    this.batch.complete = this.batch.count === this.outbox.length;
    const headers = { 'Content-Type': 'application/json', 'Idempotency-Key': this.batch.key };
    // Drawing live, changes merge by id in the server's order: no revision to be stale against.
    if (!this.live?.used) headers['If-Match'] = `"${this.revision}"`;
    return { method: 'POST', headers: access.headers(this.name, headers), body: `{"changes":[${this.outbox.slice(0, this.batch.count).join(',')}]}` };
  },

  /**
   * The server has the batch in flight, its last change at `revision`: it
   * leaves the outbox, the core stops keeping it aside for others' changes
   * (`tt_confirm_changes`), and this browser's copy builds on `revision`.
   */
  acknowledge(revision) {
    if (!this.batch) return;
    const { count, change, complete } = this.batch;
    this.revision = revision;
    this.outbox.splice(0, count);
    tt.tt_confirm_changes(count);
    this.batch = null;
    if (complete) this.savedChange = change;
    // This browser's copy builds on the new revision; clean if it is what the server has now.
    const clean = complete && this.localChange === `${this.name} ${change}`;
    localCopies.markSaved(this.name, this.revision, clean).catch(() => {});
    this.setOffline(false);
  },

  /** Someone else's change records (already in the core), at `revision`: kept in this browser's copy too. */
  keepRemote(records, revision) {
    this.revision = revision;
    this.unkept.push(...records);
    this.keepChange(true);
    // Others' changes are the server's already: with nothing of this page's unsent, the copy is clean
    // (a dirty one would be sent back whole on the next visit).
    if (!this.dirty() && this.outbox.length === 0) localCopies.markSaved(this.name, revision, true).catch(() => {});
  },

  /**
   * Sends the outbox's records (the whole drawing's changes since the
   * server's revision) as one batch. A batch that got no answer is sent
   * again with the same Idempotency-Key, so the server appends it once.
   */
  async post() {
    if (this.live?.ready) return this.live.sendBatch();
    if (this.live?.used) {
      // Drawing live and the connection is down: the batch waits for it (it resumes from this revision).
      this.setOffline(true, true);
      return;
    }
    const request = this.batchRequest();
    if (this.localChange !== `${this.name} ${this.batch.change}`) this.keepChange();
    try {
      const response = await fetch(this.url() + '/changes', request);
      if (response.ok) {
        const answer = await response.json().catch(() => ({}));
        this.acknowledge(answer.revision ?? revisionOf(response));
      } else if (response.status === 409 || response.status === 412) {
        const answer = await response.json().catch(() => ({}));
        if (await this.followRename(answer)) return;
        this.batch = null;
        this.showConflict(answer.revision);
      } else if (response.status >= 500) {
        this.setOffline(true, false);
      } else {
        const answer = await response.json().catch(() => ({}));
        this.batch = null;
        this.refused(answer.error || response.statusText);
      }
    } catch {
      this.setOffline(true, true);
    }
  },

  /**
   * Started without the server: find out what it has before writing over it.
   * True when saving may go on.
   */
  async learnRevision(text, change, sent) {
    const response = await fetch(this.url(), { cache: 'no-store', headers: access.headers(this.name) });
    if (response.status === 404) {
      this.revision = 0;
      return true;
    }
    if (!response.ok) throw new Error(response.statusText);
    if (!this.adopt(response, await response.text(), text, change, sent)) this.showConflict(revisionOf(response));
    return false;
  },

  /**
   * A save was refused as stale: if the server's copy is exactly ours
   * (a save whose answer was lost, say, on the way out of an earlier visit),
   * there is no conflict; otherwise there is.
   */
  async conflictUnlessSame(text, change, sent, theirRevision) {
    try {
      const response = await fetch(this.url(), { cache: 'no-store', headers: access.headers(this.name) });
      if (response.ok && this.adopt(response, await response.text(), text, change, sent)) return;
    } catch {
      // unreachable now: it is a conflict until shown otherwise
    }
    this.showConflict(theirRevision);
  },

  /**
   * When the server's document `theirs` is `ours` (the drawing at change
   * `change`, holding the first `sent` records of the outbox), builds on
   * its revision from now on; true then.
   */
  adopt(response, theirs, ours, change, sent) {
    if (theirs !== ours) return false;
    this.revision = revisionOf(response);
    this.savedChange = change;
    this.outbox.splice(0, sent);
    tt.tt_confirm_changes(sent);
    this.batch = null;
    this.needsWhole = false;
    const clean = !this.dirty() && this.localChange === `${this.name} ${change}`;
    localCopies.markSaved(this.name, this.revision, clean).catch(() => {});
    this.setOffline(false);
    return true;
  },

  /** The page is going away: last chance for the server; this browser has the copy already. */
  onPageHide() {
    if (!this.dirty() || this.stopped || this.revision === null) return;
    this.keepChange();
    // A batch on the socket may not get out before the page goes: send it again with its key (appended once).
    if (this.inFlight && !this.live?.waiting) return;
    this.collect();
    if (!this.needsWhole && this.outbox.length > 0) {
      // The same batch (and key) a later save would send, so the server appends it once either way.
      const request = this.batchRequest();
      if (request.body.length > KEEPALIVE_LIMIT) return;
      fetch(this.url() + '/changes', { ...request, keepalive: true }).catch(() => {});
      return;
    }
    let text;
    try {
      text = documentText();
    } catch {
      return; // this browser's copy is all there is
    }
    if (text.length > KEEPALIVE_LIMIT) return;
    fetch(this.url(), {
      method: 'PUT',
      headers: access.headers(this.name, { 'Content-Type': 'application/json', 'If-Match': `"${this.revision}"` }),
      body: text,
      keepalive: true,
    }).catch(() => {});
  },
};

Object.assign(saver, decisions);
