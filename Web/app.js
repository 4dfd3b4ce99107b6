// TouchTracker's browser host. The Swift core (touchtracker.wasm) decides
// everything; the modules here forward Pointer Events to it (input/), draw
// the render lists it returns (paint/), keep the drawing saved (sync/) and
// run the toolbar, menus and messages (ui/). This file starts them and runs
// the frame loop.

import { coreState, coreTime, documentText, loadDocument, openingBytes, skipTime, startCore, tt } from './core/bridge.js';
import { attachInput, cancelAllTouches, lastInputTime, setReadOnlyInput } from './input/pointers.js';
import { attachViewport, changeViewport, viewport, viewportFrame } from './input/viewport.js';
import {
  draw,
  holdTilePainters,
  invalidateStaticLayer,
  liveTexts,
  paintStats,
  prepareTilePainters,
  resize,
  setProgressiveCommands,
  setRepaintBudget,
  setSlowWholeMs,
  setTilePainters,
} from './paint/canvas.js';
import { attachPresence, presenceState } from './paint/presence.js';
import { access } from './server/access.js';
import { checkAccess, drawingAsked } from './sync/download.js';
import { live } from './sync/live.js';
import { localCopies } from './sync/local-copy.js';
import { saver } from './sync/saver.js';
import { hideBanner, showBanner } from './ui/banner.js';
import { attachDrawingKeys, drawingKeysFrame } from './ui/drawing-keys.js';
import { closeFileMenu } from './ui/drawings.js';
import { drawnOnce, hideHint } from './ui/help.js';
import { attachInspector, inspectorFrame, inspectorState } from './ui/inspector.js';
import { attachRecorder, isPlayingBack, recorderFrame, recorderState, seek, startPlayback, step, togglePlaying, toggleRecording } from './ui/recorder.js';
import './ui/sync-status.js'; // says what sync tells (sync/news.js)
import { attachToolbar, refreshToolbar } from './ui/toolbar.js';

let lastChange = 0;
/** What waits for the opened drawing to be painted is still to start (see `afterFrame`). */
let afterFirstPaintOwed = true;

/** After each frame: a finished change is kept in this browser at once and saved soon. */
function afterFrame() {
  // A recording playing back is not the drawing: nothing of it is saved.
  if (isPlayingBack()) return refreshToolbar(false);
  // The drawing just opened is on screen: this browser keeps its copy now (before a change of this frame).
  if (!paintStats.pendingSections) saver.keepShown();
  const change = tt.tt_change_count();
  if (change !== lastChange) {
    lastChange = change;
    saver.collect();
    drawnOnce();
  }
  live.sendPresence(performance.now());
  refreshToolbar(false);
  if (afterFirstPaintOwed && !paintStats.pendingSections) {
    afterFirstPaintOwed = false;
    const whenIdle = window.requestIdleCallback ?? setTimeout;
    // The index taps and lines use is built once the opened drawing is painted, when the page is
    // idle, not by the first line drawn: ~30 ms in all at 100k lines (2-3x that beside the tile
    // painters), ~0.3 s at a million, in slices of a few ms, so it never holds input up either.
    whenIdle(prepareIndex);
    // The page's files kept for starting offline (sw.js), likewise: the worker's install fetches
    // and stores every file of the page, the core included, and beside the tile painters it made
    // frames of 50–85 ms while 100k lines appeared (27 ms without).
    // Only in a secure context (https, or localhost): a phone on http://192.168.x.y goes without.
    whenIdle(() => navigator.serviceWorker?.register('sw.js').catch(() => {}));
  }
}

/** Lines of the index's build a call (four passes over the lines in all): ~2 ms at this speed. */
const INDEX_SLICE = 20_000;

/** Builds the line index a slice at a time while the page is idle, at most 10 ms a callback. */
function prepareIndex(idle) {
  const until = performance.now() + Math.min(idle?.timeRemaining?.() ?? 0, 10);
  let state;
  do state = tt.tt_prepare_index(0x7fffffff, INDEX_SLICE);
  while (state === 2 && performance.now() < until);
  if (state === 2) (window.requestIdleCallback ?? setTimeout)(prepareIndex); // more to do: 0 none, 1 built
}

function frame(ms) {
  try {
    resize();
    tt.tt_commit(lastInputTime());
    tt.tt_tick(coreTime(ms));
    recorderFrame(ms);
    draw();
    viewportFrame();
    inspectorFrame();
    drawingKeysFrame(ms);
    afterFrame();
  } catch (error) {
    // A trap leaves the core in no state to go on; this browser has the drawing up to the last change.
    showBanner(`TouchTracker stopped: ${error.message}`, 'warning', [['Reload', () => location.reload()]]);
    throw error;
  }
  requestAnimationFrame(frame);
}

window.addEventListener('pagehide', () => {
  cancelAllTouches();
  saver.onPageHide();
});
document.addEventListener('visibilitychange', () => {
  if (document.visibilityState !== 'hidden') return;
  cancelAllTouches();
  saver.flush();
});

async function start() {
  prepareTilePainters(); // they load beside the core and the drawing
  // The drawing is downloading already and this browser's copy of it being read (download.js,
  // which took a share link's key out of the address bar first), while the core compiles.
  const { asked, name } = drawingAsked();
  await startCore(document.documentElement.clientWidth, document.documentElement.clientHeight);
  // New lines get ids no other device picks (ShapeID.swift): a random origin per page.
  const origin = crypto.getRandomValues(new Int32Array(1))[0];
  tt.tt_set_id_origin(origin);
  // Changes go by POST until a live socket is welcomed (`?live=off`: never; for networks that drop WebSockets).
  tt.tt_sync_start(origin, 0);
  attachInput(document.getElementById('canvas'), closeFileMenu);
  attachViewport(document.getElementById('canvas'));
  attachDrawingKeys(document.getElementById('canvas'));
  attachPresence();
  attachToolbar();
  attachInspector();
  attachRecorder();
  resize();
  if (!new URLSearchParams(location.search).get('drawing')) {
    // The drawing opened last opens: the address says which, for a reload or a bookmark.
    const url = new URL(location.href);
    url.searchParams.set('drawing', name);
    history.replaceState(history.state, '', url);
  }
  if (name !== asked) {
    showBanner(`“${asked}” is not a drawing name (1–64 letters, digits, - or _).`, 'warning', [['OK', hideBanner]]);
  }
  // What this page's key opens decides whether it may draw; the drawing loads meanwhile.
  const checked = checkAccess(name);
  await saver.open(name);
  await checked;
  setReadOnlyInput(access.readOnly);
  if (access.readOnly) hideHint();
  if (access.role === 'none') {
    showBanner(
      access.hasLinkKey(name)
        ? `The link you opened no longer opens “${name}”: its links were replaced. Ask whoever shared it for the new one.`
        : `“${name}” needs its share link: open the link you were sent, or the admin link the server printed at start.`,
      'warning',
    );
  }
  localCopies.pruneClean(saver.name).catch(() => {});
  if (new URLSearchParams(location.search).get('live') !== 'off' && access.role !== 'none') live.start(origin);
  lastChange = tt.tt_change_count();
  refreshToolbar(true);
  requestAnimationFrame(frame);
}

/** For tests and the curious: `await touchtracker.ready; touchtracker.state()`. */
window.touchtracker = {
  ready: start().catch((error) => {
    showBanner(`TouchTracker could not start: ${error.message}`, 'warning');
    throw error;
  }),
  state: () => coreState(),
  document: () => JSON.parse(documentText()),
  /** Text on screen (menu items, palette buttons) and where it is centered. */
  texts: () => liveTexts(),
  loadDocument: (text) => loadDocument(text),
  /** The bytes of a document the core has read so far while it opens one (0 when none is opening). */
  openingBytes: () => openingBytes(),
  core: () => tt,
  /** How the cached drawing was repainted so far (whole, append, repaint) and the last repainted rectangle. */
  paintStats: () => ({ ...paintStats }),
  /** Repaints the whole drawing on the next frame (what every change did before). */
  repaintAll: () => invalidateStaticLayer(),
  /** The drawing's point at the window's top-left corner and the zoom; and a `VIEWPORT` command to change them. */
  viewport: () => viewport(),
  changeViewport: (command, a, b, c) => changeViewport(command, a, b, c),
  /** The milliseconds of a frame a repaint may take (default 7; 0: one chunk of commands a frame). */
  repaintBudget: (ms) => setRepaintBudget(ms),
  /** A whole paint slower than `ms` makes pans and zooms move the cached pixels first and repaint once still for `settle` ms (50, 150; -1: always). */
  slowPaintMs: (ms, settle) => setSlowWholeMs(ms, settle),
  /** A whole layer of more than `count` commands is painted tile by tile over frames (default 20000). */
  progressiveCommands: (count) => setProgressiveCommands(count),
  /** Whether whole layers painted tile by tile go to the tile painters (workers; default true) or this thread, and how long they may be silent (ms) before this thread takes over. */
  tilePainters: (allowed, silenceMs) => setTilePainters(allowed, silenceMs),
  /** Holds the tile painters' sections until `holdTilePainters(false)` (tests act while a whole layer is painted). */
  holdTilePainters: (hold) => holdTilePainters(hold),
  /** Moves the core's clock `seconds` ahead (timers fire on the next frame): tests wait without sleeping. */
  skipTime: (seconds) => skipTime(seconds),
  save: () => saver.flush(),
  /** This browser's copy of drawing `name` (default: the open one), or null. */
  localCopy: (name = saver.name) => localCopies.get(name),
  saving: () => ({
    name: saver.name,
    revision: saver.revision,
    /** This page's changes the server has not acknowledged. */
    pending: saver.state.pending,
    dirty: saver.dirty(),
    offline: saver.offline,
    connection: saver.state.connection,
    conflict: false, // changes merge by id: there is no conflict to decide
    stopped: saver.stopped,
    local: saver.local,
  }),
  /** Drawing together: the connection's status, this page's id, others' batches received, who is drawing now. */
  live: () => ({ status: live.status, client: live.client, received: live.received, presence: presenceState() }),
  /** What this page's key opens ('open', 'admin', 'edit', 'view', 'none', 'unknown') and the links it was given. */
  access: () => ({ role: access.role, links: access.links }),
  /** The live connection itself, so tests can cut it. */
  liveSocketForTests: () => live.socket,
  /** The inspector: on or off, the records taken so far and what its panel shows. */
  inspector: () => inspectorState(),
  /** The recorder: recording or not, the last trace, the playback's position. */
  recorder: () => recorderState(),
  record: () => toggleRecording(),
  playTrace: (text) => startPlayback(text),
  seek: (time) => seek(time),
  step: () => step(),
  togglePlaying: () => togglePlaying(),
};
