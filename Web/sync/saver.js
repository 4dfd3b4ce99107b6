// Saving. Every finished change is kept in this browser at once (IndexedDB,
// sync/local-copy.js) and sent to the server within SAVE_DELAY_MS, with
// If-Match naming the revision it builds on. A 409 stops saving and asks:
// nothing either side wrote is thrown away unless the person says so.
// Unreachable server: keep trying; the browser's copy survives a closed tab
// and is offered again on the next visit.
//
// Two rules keep a drawing from being emptied: a document that could not be
// opened never counts as a change (nothing is saved because a load failed),
// and the banner says "saved in this browser" only once the copy is durable.

import { documentText, loadDocument, tt } from '../core/bridge.js';
import { download, hideBanner, showBanner } from '../ui/banner.js';
import { decisions } from './decisions.js';
import { localCopies } from './local-copy.js';

const SAVE_DELAY_MS = 250;
const RETRY_DELAY_MS = 3000;
const KEEPALIVE_LIMIT = 60000; // browsers refuse keepalive bodies past 64 KB
const EMPTY = '{"format":"touchtracker","version":1,"lines":[],"circles":[]}';

/** Why this browser would not keep a copy, as the end of a sentence. */
function storageProblem(error) {
  if (error?.name === 'QuotaExceededError') return "this browser's storage is full";
  return `this browser refused a copy (${String(error?.message || error).replace(/\.$/, '')})`;
}

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

  url(name = this.name) {
    return '/api/drawings/' + encodeURIComponent(name);
  },
  dirty() {
    return tt.tt_change_count() !== this.savedChange;
  },

  /** Keeps `text` in this browser; the banner follows whether that worked. */
  keepLocal(text, dirty) {
    const write = ++this.localWrites;
    this.local = 'pending';
    this.localChange = `${this.name} ${tt.tt_change_count()}`;
    const record = { name: this.name, document: text, revision: this.revision, dirty, savedAt: Date.now() };
    return localCopies.put(record).then(
      () => this.localDone(write, null),
      (error) => this.localDone(write, storageProblem(error)),
    );
  },
  localDone(write, problem) {
    if (write !== this.localWrites) return; // a newer copy is on its way
    this.local = problem ? 'failed' : 'saved';
    this.localProblem = problem;
    if (this.offline) this.showOffline();
  },
  /** Keeps the current drawing unless its newest change is kept already (or `again`, for a new revision). */
  keepChange(again = false) {
    if (!again && this.localChange === `${this.name} ${tt.tt_change_count()}`) return;
    try {
      this.keepLocal(documentText(), true);
    } catch (error) {
      this.localDone(++this.localWrites, error.message);
    }
  },

  async readLocal() {
    try {
      return await localCopies.get(this.name);
    } catch (error) {
      showBanner(`This browser's copies cannot be read (${error.message}); opening the server's.`, 'warning',
        [['OK', hideBanner]]);
      return null;
    }
  },

  /** Opens the drawing: the server's copy, or this browser's unsaved one. */
  async open(name) {
    this.name = name;
    const local = await this.readLocal();
    let response = null;
    try {
      response = await fetch(this.url(), { cache: 'no-store' });
    } catch {
      response = null;
    }
    if (response && response.ok) {
      const text = await response.text();
      const revision = revisionOf(response);
      if (local?.dirty && local.document !== text && (await this.openLocal(local))) {
        if (local.revision === revision) this.markChanged();
        else this.showConflict(revision);
        return;
      }
      if (!this.openServer(text, revision)) return;
      this.keepLocal(text, false);
      this.setOffline(false);
    } else if (response && response.status === 404) {
      if (local?.dirty && (await this.openLocal(local))) this.markChanged();
      else this.openServer(null, 0);
      this.setOffline(false);
    } else {
      // Unreachable or failing: show what this browser has and save it when the server is back.
      const opened = local && (await this.openLocal(local));
      if (opened && local.dirty) this.markChanged();
      else this.revision = null; // unknown until the server answers; then its copy is opened
      this.setOffline(true, !response);
      this.schedule(RETRY_DELAY_MS);
    }
  },

  /** Opens this browser's copy; if the core refuses it, keeps it aside for download instead. */
  async openLocal(local) {
    const problem = loadDocument(local.document);
    if (!problem) {
      this.revision = local.revision;
      this.savedChange = tt.tt_change_count();
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
  openServer(text, revision) {
    const problem = loadDocument(text ?? EMPTY);
    this.savedChange = tt.tt_change_count();
    if (!problem) {
      this.revision = revision;
      return true;
    }
    this.revision = null;
    this.stopped = 'unreadable';
    showBanner(`Could not open “${this.name}”: ${problem}. Nothing drawn here is saved over it.`, 'warning',
      [['Save mine as a copy', () => this.saveAsCopy()]]);
    return false;
  },

  /** The drawing differs from the server's even though the core's change count did not move. */
  markChanged() {
    this.savedChange = -1;
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
    const change = tt.tt_change_count();
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
      if (this.revision === null && !(await this.learnRevision(text))) return;
      const response = await fetch(this.url(), {
        method: 'PUT',
        headers: { 'Content-Type': 'application/json', 'If-Match': `"${this.revision}"` },
        body: text,
      });
      if (response.ok) {
        const body = await response.json().catch(() => ({}));
        this.revision = body.revision ?? revisionOf(response);
        this.savedChange = change;
        // Changes made meanwhile are kept already; keep them, on the new revision.
        if (this.dirty()) this.keepChange(true);
        else this.keepLocal(text, false);
        this.setOffline(false);
      } else if (response.status === 409 || response.status === 412) {
        const body = await response.json().catch(() => ({}));
        this.showConflict(body.revision);
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
   * Started without the server: find out what it has before writing over it.
   * True when saving may go on.
   */
  async learnRevision(text) {
    const response = await fetch(this.url(), { cache: 'no-store' });
    if (response.status === 404) {
      this.revision = 0;
      return true;
    }
    if (!response.ok) throw new Error(response.statusText);
    const revision = revisionOf(response);
    if ((await response.text()) === text) {
      this.revision = revision;
      this.savedChange = tt.tt_change_count();
      return false;
    }
    this.showConflict(revision);
    return false;
  },

  /** The page is going away: last chance for the server; this browser has the copy already. */
  onPageHide() {
    if (!this.dirty() || this.stopped || this.revision === null) return;
    this.keepChange();
    if (this.inFlight) return;
    let text;
    try {
      text = documentText();
    } catch {
      return; // this browser's copy is all there is
    }
    if (text.length > KEEPALIVE_LIMIT) return;
    fetch(this.url(), {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json', 'If-Match': `"${this.revision}"` },
      body: text,
      keepalive: true,
    }).catch(() => {});
  },
};

Object.assign(saver, decisions);
