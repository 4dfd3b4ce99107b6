// What saving shows when it cannot simply go on, and the choices it offers:
// offline (and whether this browser holds the drawing), a conflict with
// another version, a document the server refuses. Methods of `saver`
// (sync/saver.js), mixed into it there.

import { documentText } from '../core/bridge.js';
import { download, hideBanner, showBanner } from '../ui/banner.js';
import { localCopies } from './local-copy.js';

const downloadAction = (name) => [
  'Download',
  () => {
    try {
      download(new Blob([documentText()], { type: 'application/json' }), `${name}.json`);
    } catch (error) {
      showBanner(`Could not export “${name}”: ${error.message}.`, 'warning', [['OK', hideBanner]]);
    }
  },
];

export const decisions = {
  /** The server will not take this document; retrying would be refused again. */
  refused(reason) {
    this.stopped = 'refused';
    const where = this.local === 'failed' ? 'It is only in this tab: download it before closing.' : 'It is kept in this browser.';
    showBanner(`Could not save “${this.name}”: ${reason}. ${where}`, 'warning', [
      downloadAction(this.name),
      ['Save as a copy', () => this.saveAsCopy()],
    ]);
  },

  setOffline(offline, unreachable) {
    const changed = this.offline !== offline;
    this.offline = offline;
    if (offline) {
      this.offlineReason = unreachable ? 'Offline' : 'The server had a problem';
      this.showOffline();
    } else if (changed) {
      hideBanner();
    }
  },

  /** The offline banner, saying where the drawing is only once that is true. */
  showOffline() {
    if (this.stopped) return; // a conflict or refusal banner asks for a decision; keep it
    if (this.local === 'saved') {
      showBanner(`${this.offlineReason} — saved in this browser`);
    } else if (this.local === 'pending') {
      showBanner(`${this.offlineReason} — saving in this browser…`);
    } else {
      showBanner(
        `${this.offlineReason} — NOT saved: ${this.localProblem}. ` +
          'Keep this tab open until the server is back, or download the drawing.',
        'warning',
        [downloadAction(this.name)],
      );
    }
  },

  showConflict(theirRevision) {
    this.stopped = 'conflict';
    clearTimeout(this.timer);
    this.timer = null;
    showBanner(
      `“${this.name}” was changed somewhere else (revision ${theirRevision ?? '?'}). Your version is kept here.`,
      'warning',
      [
        ['Save mine as a copy', () => this.saveAsCopy()],
        ['Discard mine, open theirs', () => this.openTheirs()],
      ],
    );
  },

  async saveAsCopy() {
    if (this.stopped === 'playback') return; // the screen shows a recording, not this drawing
    const base = this.name.slice(0, 50);
    const stamp = new Date().toISOString().slice(5, 19).replace(/[-:]/g, '').replace('T', '-');
    const oldName = this.name;
    this.name = `${base}-${stamp}`;
    this.revision = 0;
    this.stopped = null;
    this.markChanged();
    history.replaceState(null, '', '?drawing=' + encodeURIComponent(this.name));
    hideBanner();
    // Drawing live, the socket follows the drawing to its new name (it says hello once the copy is saved).
    if (this.live?.used) this.live.restart();
    await this.save();
    if (!this.dirty()) {
      // Ours is on the server under the new name; the old name's copy was ours too.
      const old = await localCopies.summary(oldName).catch(() => null);
      if (old?.dirty) await localCopies.remove(oldName).catch(() => {});
      showBanner(`Saved your version as “${this.name}”.`, '', [['OK', hideBanner]]);
    }
  },

  async openTheirs() {
    if (this.stopped === 'playback') return;
    this.stopped = null;
    hideBanner();
    await localCopies.remove(this.name).catch(() => {});
    this.localChange = null;
    await this.open(this.name);
  },
};
