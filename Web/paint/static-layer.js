// Keeps the cached static layer (layer-cache.js) in step with the core's,
// a frame at a time.
//
// Cache protocol: `tt_static_version()` changes whenever the static layer
// changed; `tt_render_static(whole)` then returns what to paint, in tile
// sections (each starts with a clip command to its tile), and
// `tt_static_mode()` says what it is: STATIC.whole (clear the cache, paint
// every tile), STATIC.append (new lines over the tiles they meet) or
// STATIC.repaint (the rectangles a change touched, a section per tile each
// meets), which is painted over as many frames as it takes (repaint.js).
// `whole` forces everything, for a cache this page cleared itself (resize,
// first frame). See DrawView+Tiles.swift.
//
// Pan and zoom over a drawing that paints slowly (its last whole paint took
// over slowWholeMs, 50 ms: ~5 s at 100k lines in software raster): the cache's
// pixels are moved (and scaled) to the new viewport at once, so the drawing
// follows the fingers or the wheel every frame, and the whole layer is
// repainted only once the viewport has been still for settleMs (150), as a
// repaint over as many frames as it takes (tile by tile, each copied in
// when done), never blocking input. Lines finished meanwhile are painted
// over the cache as they come (an append), and again over each tile the
// repaint copies in, so none goes missing. A drawing that paints fast is
// repainted whole at once: crisp at every step. A whole layer of more than
// progressiveCommands (20,000: opening a big drawing, a resize) is painted
// the same way, tile by tile over the background: the page answers input
// while a 100k-line drawing appears. Whole layers painted tile by tile go to
// the tile painters (workers, tile-painters.js) when the browser has them:
// in parallel, and off the thread that handles input.

import { STATIC, STRIDE, bytes, f32, tt } from '../core/bridge.js';
import { paint } from './commands.js';
import {
  BACKGROUND,
  fitScratch,
  paintStats,
  redrawWhole,
  scratch,
  scratchCtx,
  size,
  staticCanvas,
  staticCtx,
  wholePaint,
} from './layer-cache.js';
import {
  appendDuringRepaint,
  continueRepaint,
  dropRepaint,
  finishRepaint,
  frameDeadline,
  queueAfterRepaint,
  repaint,
  startRepaint,
  withPainterCopies,
} from './repaint.js';

let staticVersion = -1; // -1: the cache is empty and must be painted whole
/** The static version last reported to the core as on screen whole (tt_static_painted). */
let reportedVersion = -1;
/** The viewport the cache's pixels show, [x, y, zoom] (tt_viewport_value). */
let cachedViewport = null;
/** Above this many ms for a whole paint (`wholePaint.ms`), a pan or zoom moves the cache's pixels first. */
let slowWholeMs = 50;
/** How long the viewport stays still before a moved cache is repainted, ms. */
let settleMs = 150;
/** When the moved cache may be repainted whole (0: it shows the drawing as it is). */
let wholeOwedAt = 0;
/** A whole layer of more commands than this (~1 s of software raster) is painted tile by tile over frames, not at once. */
let progressiveCommands = 20000;

/**
 * Brings the cache up to date with the core's list. `progressive`: a whole
 * list is painted as a repaint (tile by tile over frames) over what the
 * cache shows, not at once. A big drawing's whole layer comes in parts
 * (STATIC.wholeInParts): the core hands out its first tile now and one tile
 * a call after (repaint.js, `pullParts`), so building the list never blocks
 * input either (~50–100 ms at 100k lines in one piece, ~450 ms at a million).
 */
function paintStaticLayer(whole, deadline, { progressive = false } = {}) {
  const started = performance.now();
  const count = tt.tt_render_static(whole ? 1 : 0);
  const floats = f32(tt.tt_static_ptr(), count * STRIDE);
  const text = bytes(tt.tt_static_text_ptr(), tt.tt_static_text_len());
  const mode = tt.tt_static_mode();
  staticCtx.setTransform(size.dpr, 0, 0, size.dpr, 0, 0);
  const inParts = mode === STATIC.wholeInParts;
  const big = inParts || (mode === STATIC.whole && count > progressiveCommands);
  if (mode === STATIC.repaint || big || (mode === STATIC.whole && progressive)) {
    paintStats[mode === STATIC.repaint ? 'repaint' : 'whole']++;
    if (big && !progressive) {
      // Opening a big drawing, a resize, a load: the background at once, then tile by tile,
      // each a few ms of a frame, so input never waits for all of it; pans meanwhile move pixels.
      staticCtx.fillStyle = BACKGROUND;
      staticCtx.fillRect(0, 0, size.width, size.height);
      wholePaint.ms = Math.max(wholePaint.ms, slowWholeMs + 1);
    }
    startRepaint(floats.slice(), text.slice(), count, deadline, undefined, mode !== STATIC.repaint, inParts);
    return;
  }
  if (mode === STATIC.whole) {
    paintStats.whole++;
    staticCtx.clearRect(0, 0, size.width, size.height);
  } else {
    paintStats.append++;
  }
  paint(staticCtx, floats, text, 0, count, size.dpr);
  if (mode === STATIC.whole) wholePaint.ms = performance.now() - started;
}

/**
 * A change while a whole repaint is under way (`repaint.isWhole`: seconds
 * at 100k lines). New lines go over the cache now and again over each tile
 * it copies in later; a repaint of what a change touched waits for it (it
 * is relative to the version the whole one was built from) and runs after
 * it, in order; a whole list (a clear, a load) starts it over with that list.
 * Restarting on every change would never finish while others draw. (The
 * core keeps handing out the tiles of a whole layer in parts as the drawing
 * was when it began, whatever changed since.)
 */
function takeUpdateDuringWholeRepaint(deadline) {
  const count = tt.tt_render_static(0);
  const floats = f32(tt.tt_static_ptr(), count * STRIDE).slice();
  const text = bytes(tt.tt_static_text_ptr(), tt.tt_static_text_len()).slice();
  const mode = tt.tt_static_mode();
  if (mode === STATIC.append) {
    paintStats.append++;
    staticCtx.setTransform(size.dpr, 0, 0, size.dpr, 0, 0);
    paint(staticCtx, floats, text, 0, count, size.dpr);
    appendDuringRepaint({ floats, text, count });
  } else if (mode === STATIC.repaint) {
    paintStats.repaint++;
    queueAfterRepaint({ floats, text, count });
  } else {
    paintStats.whole++;
    dropRepaint();
    startRepaint(floats, text, count, deadline, undefined, true, mode === STATIC.wholeInParts);
  }
}

/** Repaints the whole layer over what the cache shows, tile by tile over frames (see the top). */
function startWholeRepaint(deadline, view) {
  dropRepaint();
  wholeOwedAt = 0;
  cachedViewport = view;
  paintStaticLayer(true, deadline, { progressive: true });
  redrawWhole();
}

/**
 * Moves the cache's pixels from viewport `from` to `to` ([x, y, zoom]: the
 * drawing's point at the window's top-left and the zoom), scaling them; what
 * comes into view is background until the repaint.
 */
function moveCache(from, to) {
  const scale = to[2] / from[2];
  const { dpr } = size;
  fitScratch();
  scratchCtx.setTransform(1, 0, 0, 1, 0, 0);
  scratchCtx.clearRect(0, 0, scratch.width, scratch.height);
  scratchCtx.drawImage(staticCanvas, 0, 0);
  staticCtx.setTransform(1, 0, 0, 1, 0, 0);
  staticCtx.fillStyle = BACKGROUND;
  staticCtx.fillRect(0, 0, staticCanvas.width, staticCanvas.height);
  // A window point p of `from` is the drawing's p / zoom + origin: in `to` it is at (that - origin') * zoom'.
  staticCtx.setTransform(scale, 0, 0, scale, (from[0] - to[0]) * to[2] * dpr, (from[1] - to[1]) * to[2] * dpr);
  staticCtx.drawImage(scratch, 0, 0);
}

const viewportNow = () => (tt.tt_viewport_value ? [0, 1, 2].map((i) => tt.tt_viewport_value(i)) : [0, 0, 1]);
const sameViewport = (a, b) => a[0] === b[0] && a[1] === b[1] && a[2] === b[2];

/**
 * Brings the cache up to date for this frame, within its share of the frame
 * (repaint.js, `frameDeadline`). Returns what of the cache changed, if only
 * sections copied in did ([x, y, width, height], device pixels), or null; a
 * change beyond that asks for the whole cache on screen (`redrawWhole`).
 */
export function updateStaticLayer() {
  const now = performance.now();
  const deadline = frameDeadline(now);
  let copied = null; // a section of a repaint copied into the cache this frame (device pixels)
  const version = tt.tt_static_version();
  const view = viewportNow();
  const moved = staticVersion !== -1 && cachedViewport && !sameViewport(view, cachedViewport);
  if (version !== staticVersion && moved && wholePaint.ms > slowWholeMs) {
    // Panned or zoomed over a drawing that paints slowly: its pixels follow now, the repaint once it is still.
    dropRepaint();
    moveCache(cachedViewport, view);
    cachedViewport = view;
    staticVersion = version;
    wholeOwedAt = now + settleMs;
    redrawWhole();
  } else if (wholeOwedAt && (version !== staticVersion || now >= wholeOwedAt)) {
    // Still, or changed while it settled: the moved pixels are repainted, tile by tile.
    staticVersion = version;
    startWholeRepaint(deadline, view);
  } else if (version !== staticVersion) {
    const whole = staticVersion === -1;
    staticVersion = version;
    if (repaint?.isWhole) {
      takeUpdateDuringWholeRepaint(deadline);
      // Changes every frame (others drawing) must not hold the layer up: it goes on as well.
      if (repaint) copied = continueRepaint(deadline);
    } else {
      // The core's list is relative to everything it handed out before.
      if (!whole) finishRepaint();
      dropRepaint();
      cachedViewport = view;
      paintStaticLayer(whole, deadline);
    }
    redrawWhole();
  } else if (repaint) {
    paintStats.lastRepaintFrames++;
    copied = continueRepaint(deadline);
  }
  copied = withPainterCopies(copied);
  paintStats.repaintOwed = wholeOwedAt !== 0;
  // The cache shows the core's static layer whole: a shape let go of after a long press, drawn in the
  // live layer until now (its tiles were still being repainted without it), can leave it.
  if (!repaint && !wholeOwedAt && paintStats.pendingSections === 0 && reportedVersion !== staticVersion) {
    reportedVersion = staticVersion;
    tt.tt_static_painted(staticVersion);
  }
  return copied;
}

/**
 * Sets how slow a whole paint must be for pans and zooms to move the cache's
 * pixels first (tests: -1 always, Infinity never), and how long the viewport
 * must then be still before the repaint (a repaint owed starts by then).
 */
export function setSlowWholeMs(ms, settle = 150) {
  slowWholeMs = ms;
  settleMs = settle;
  if (wholeOwedAt) wholeOwedAt = Math.min(wholeOwedAt, performance.now() + settle);
}

/** Sets how many commands a whole layer may have to be painted at once (tests: Infinity, always at once). */
export function setProgressiveCommands(count) {
  progressiveCommands = count;
  tt.tt_static_parts_above(count); // the core hands out a whole layer of more shapes than that in parts
}

/** Drops the cached static layer: the next frame paints it whole. */
export function invalidateStaticLayer() {
  staticVersion = -1;
  wholeOwedAt = 0;
  cachedViewport = null;
  dropRepaint();
}
