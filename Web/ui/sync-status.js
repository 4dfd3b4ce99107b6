// What sync says to the person (the events of sync/news.js): offline and how
// many changes wait (only "in this browser" once that is durable), when they
// are all on the server again, a drawing read again or renamed, and the cases
// where saving cannot go on by itself: the server refuses a change for good,
// its drawing cannot be opened, or this browser's copy cannot be.

import { documentText } from '../core/bridge.js';
import { syncNews } from '../sync/news.js';
import { download, hideBanner, showBanner } from './banner.js';
import { showNotice } from './notice.js';

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

const downloadText = (text, file) => () => download(new Blob([text], { type: 'application/json' }), file);

const changes = (count) => (count === 1 ? '1 change waits' : `${count} changes wait`);

const status = {
  /** The banner's text as last shown by `update` ('' when hidden by it). */
  shown: '',
  /** Changes waited while offline: say so when they are all on the server. */
  waited: false,

  /** Says where the drawing's changes are, after every sync event and write of this browser's copy. */
  update(saver) {
    if (saver.stopped === 'refused' || saver.stopped === 'unreadable' || saver.stopped === 'playback') return;
    const { pending } = saver.state;
    let text = '';
    let kind = '';
    let actions = [];
    if (saver.unreachable) {
      this.waited ||= pending > 0;
      if (pending === 0) text = 'Offline — all changes are on the server';
      else if (saver.local === 'saved') text = `Offline — ${changes(pending)} in this browser`;
      else if (saver.local === 'pending') text = `Offline — ${changes(pending)}; keeping them in this browser…`;
      else {
        text = `Offline — ${changes(pending)}, NOT saved: ${saver.localProblem}. Keep this tab open until the server is back, or download the drawing.`;
        kind = 'warning';
        actions = [downloadAction(saver.name)];
      }
    } else if (pending > 0 && this.waited) {
      text = `Back online — sending ${pending === 1 ? '1 change' : `${pending} changes`}…`;
    }
    if (text === this.shown) return;
    if (text) showBanner(text, kind, actions);
    else if (this.shown) hideBanner();
    this.shown = text;
    if (!text && this.waited && pending === 0) {
      this.waited = false;
      showNotice('All changes are on the server');
    }
  },

  /** The server will not take a change; sending it again would be refused again. */
  refused(saver, reason) {
    this.shown = '';
    const where = saver.local === 'failed' ? 'It is only in this tab: download it before closing.' : 'It is kept in this browser.';
    showBanner(`Could not save “${saver.name}”: ${reason}. ${where}`, 'warning', [downloadAction(saver.name)]);
  },

  /** The server's drawing could not be opened: nothing drawn here is saved over it. */
  unreadable(saver, problem) {
    this.shown = '';
    showBanner(`Could not open “${saver.name}”: ${problem}. Nothing drawn here is saved over it.`, 'warning',
      [downloadAction(saver.name)]);
  },
};

syncNews.addEventListener('status', ({ detail }) => status.update(detail.saver));
syncNews.addEventListener('refused', ({ detail }) => status.refused(detail.saver, detail.reason));
syncNews.addEventListener('unreadable', ({ detail }) => status.unreadable(detail.saver, detail.problem));
syncNews.addEventListener('renamed', ({ detail }) => showNotice(`This drawing was renamed “${detail.name}”`));
syncNews.addEventListener('replaced', ({ detail: { name, kept } }) =>
  showNotice(`“${name}” is shown as the server has it now, with ${kept === 1 ? 'your change' : `your ${kept} changes`} added to it`),
);
syncNews.addEventListener('copies-unreadable', ({ detail }) =>
  showBanner(`This browser's copies cannot be read (${detail.message}); opening the server's.`, 'warning', [['OK', hideBanner]]),
);
syncNews.addEventListener('copy-aside', ({ detail: { name, problem, text, shown } }) => {
  const what = shown
    ? `This browser's unsaved copy of “${name}” could not be opened: ${problem}. It is kept aside; the saved drawing is shown.`
    : `This browser's copy of “${name}” could not be opened: ${problem}. It is kept aside.`;
  showBanner(what, 'warning', [['Download the copy', downloadText(text, `${name}-unsaved.json`)], ['OK', hideBanner]]);
});
