// Render lists become pixels. The core keeps two layers: a static one (the
// finished drawing), cached here in an offscreen canvas and repainted only
// when the core's static version moves, and a live one (lines in progress,
// selection, menus, palette) painted over it every frame that needs it.
//
// Cache protocol: `tt_static_version()` changes whenever the static layer
// changed; `tt_render_static(whole)` then returns what to paint, in tile
// sections (each starts with a clip command to its tile), and
// `tt_static_mode()` says what it is: STATIC.whole (clear the cache, paint
// every tile), STATIC.append (new lines over the tiles they meet) or
// STATIC.repaint (the rectangles a change touched, a section per tile each
// meets). A tile is always painted clipped to itself: a canvas rasterizes a
// line a little differently under another clip. So a repaint section is
// painted on `scratch` (the cache's size) clipped to its whole tile, and
// only its area (its fill command's rectangle, within the tile) is copied
// into the cache: the same pixels a whole repaint gives. A repaint is
// painted over as many frames as it takes, a few milliseconds a frame, and
// each section is copied once it is complete: the screen shows every pixel
// either as it was or as it is, never half painted. `whole` forces
// everything, for a cache this page cleared itself (resize, first frame).
// See DrawView+Tiles.swift.
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
// repainted whole at once, as before: crisp at every step. A whole layer
// of more than progressiveCommands (20,000: opening a big drawing, a resize) is
// painted the same way, tile by tile over the background: the page answers
// input while a 100k-line drawing appears. Whole layers painted tile by tile
// go to the tile painters (workers, see "The tile painters" below) when the
// browser has them: in parallel, and off the thread that handles input.

import { KIND, PROBE, STATIC, STRIDE, bytes, f32, tt } from '../core/bridge.js';
import { clipTo, cssColor, deviceRect, paint, textAt } from './commands.js';
import { pointers } from '../input/pointers.js';

const canvas = document.getElementById('canvas');
const ctx = canvas.getContext('2d');
/** The cached static layer: the drawing as the window shows it (panned and zoomed: see DrawView+Viewport.swift). */
export const staticCanvas = document.createElement('canvas');
const staticCtx = staticCanvas.getContext('2d');
/** Where repaint sections are painted before their area is copied into the cache (see above); sized on first use. */
const scratch = document.createElement('canvas');
const scratchCtx = scratch.getContext('2d');
/** Milliseconds of a frame that bringing the cache up to date may take (the core's part counted): the rest of a repaint goes on in the next frames. */
let repaintBudget = 7;
/** Commands painted between two looks at the clock (each look makes the canvas rasterize what it was given). */
const REPAINT_CHUNK = 24;

let size = { width: 0, height: 0, dpr: 1 };
/**
 * How the static layer was brought up to date, by mode; the last repaint's
 * rectangle (CSS pixels, around the areas it copies), the frames it took and
 * how many of its sections are still to paint, and whether a moved cache
 * waits for its repaint (for tests and benchmarks).
 */
export const paintStats = {
  whole: 0,
  append: 0,
  repaint: 0,
  lastRepaint: null,
  lastRepaintFrames: 0,
  /** Sections still to paint, and one more while a whole layer's parts are still to come from the core. */
  pendingSections: 0,
  /** Sections of whole layers the tile painters painted (see `paintInWorkers`). */
  workerSections: 0,
  /** A pan or zoom moved the cache's pixels, and the whole repaint waits for the viewport to be still. */
  repaintOwed: false,
};
/** The repaint under way: its list (copied out of the core), its sections and how far it got. */
let repaint = null;
let staticVersion = -1; // -1: the cache is empty and must be painted whole
/** The static version last reported to the core as on screen whole (tt_static_painted). */
let reportedVersion = -1;
/** The viewport the cache's pixels show, [x, y, zoom] (tt_viewport_value). */
let cachedViewport = null;
/** How long the last whole paint took, ms: above slowWholeMs a pan or zoom moves the cache's pixels first. */
let lastWholeMs = 0;
let slowWholeMs = 50;
/** How long the viewport stays still before a moved cache is repainted, ms. */
let settleMs = 150;
/** When the moved cache may be repainted whole (0: it shows the drawing as it is). */
let wholeOwedAt = 0;
const BACKGROUND = '#c8c8c8'; // DrawView.backgroundGray
/** A whole layer of more commands than this (~1 s of software raster) is painted tile by tile over frames, not at once. */
let progressiveCommands = 20000;
let mustRedraw = true;
let predictedLastFrame = false;

/** Follows the window's size and pixel ratio; clears the cache when they change. */
export function resize() {
  const dpr = window.devicePixelRatio || 1;
  const width = document.documentElement.clientWidth;
  const height = document.documentElement.clientHeight;
  if (width === size.width && height === size.height && dpr === size.dpr) return;
  size = { width, height, dpr };
  for (const c of [canvas, staticCanvas]) {
    c.width = Math.round(width * dpr);
    c.height = Math.round(height * dpr);
  }
  tt.tt_resize(width, height);
  staticVersion = -1;
  wholeOwedAt = 0;
  dropRepaint();
  mustRedraw = true;
}

/**
 * Brings the cache up to date with the core's list. `progressive`: a whole
 * list is painted as a repaint (tile by tile over frames) over what the
 * cache shows, not at once. A big drawing's whole layer comes in parts
 * (STATIC.wholeInParts): the core hands out its first tile now and one tile
 * a call after (`pullParts`), so building the list never blocks input
 * either (~50–100 ms at 100k lines in one piece, ~450 ms at a million).
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
      lastWholeMs = Math.max(lastWholeMs, slowWholeMs + 1);
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
  if (mode === STATIC.whole) lastWholeMs = performance.now() - started;
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
    repaint.appended.push({ floats, text, count });
  } else if (mode === STATIC.repaint) {
    paintStats.repaint++;
    repaint.queue.push({ floats, text, count, appendedFrom: repaint.appended.length });
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
  mustRedraw = true;
}

/**
 * Moves the cache's pixels from viewport `from` to `to` ([x, y, zoom]: the
 * drawing's point at the window's top-left and the zoom), scaling them; what
 * comes into view is background until the repaint.
 */
function moveCache(from, to) {
  const scale = to[2] / from[2];
  const { dpr } = size;
  if (scratch.width !== staticCanvas.width || scratch.height !== staticCanvas.height) {
    [scratch.width, scratch.height] = [staticCanvas.width, staticCanvas.height];
  }
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
 * Starts a repaint of a list (a whole one if `whole`; `inParts`: its first
 * tile, the others to come from the core). A whole layer (seconds of raster
 * at 100k lines) is painted by the tile painters when the browser has them
 * (see `paintInWorkers`); anything else here, a few milliseconds a frame.
 */
function startRepaint(floats, text, count, deadline, carried = { appended: [], queue: [] }, whole = false, inParts = false) {
  if (scratch.width !== staticCanvas.width || scratch.height !== staticCanvas.height) {
    [scratch.width, scratch.height] = [staticCanvas.width, staticCanvas.height];
  }
  repaint = {
    generation: ++repaintGeneration,
    sections: [],
    /** The section being painted here, and its next command. */
    section: 0,
    next: 0,
    /** Sections not copied into the cache yet. */
    remaining: 0,
    /** Tiles of a whole layer in parts still to come from the core (`pullParts`). */
    partsPending: inParts,
    /** Lines finished since it began (append lists), painted again over each tile it copies in. */
    appended: carried.appended,
    /** Repaints of changes made since it began, to run after it in order (see takeUpdateDuringWholeRepaint). */
    queue: carried.queue,
    isWhole: whole,
    /** The tile painters paint it: this page's thread only copies their sections in (and finishes it if asked to). */
    inWorkers: whole && tilePainters() !== null,
    /** Commands handed to each painter so far (the next section goes to the least busy). */
    load: [],
    /** When the painters last sent a section (or were given the first): see `painterSilenceMs`. */
    heardAt: performance.now(),
    /** Device pixels its sections copy, [left, top, right, bottom]. */
    bounds: [Infinity, Infinity, -Infinity, -Infinity],
    startedAt: performance.now(),
    /** Milliseconds spent painting it on this page's thread so far. */
    paintMs: 0,
  };
  paintStats.pendingSections = inParts ? 1 : 0; // one more while parts are to come
  paintStats.lastRepaintFrames = 1;
  addSections(floats, text, count);
  continueRepaint(deadline, !inParts);
}

/**
 * Adds the sections of a list (a clip to the tile, then a fill of the area,
 * then the shapes) to the repaint under way, each with the device pixels to
 * copy: the fill's rectangle rounded inward (each of them fully painted),
 * within the tile's clip. The tile painters get them at once.
 */
function addSections(floats, text, count) {
  const added = [];
  for (let at = floats.indexOf(KIND.clip); at !== -1 && at < count * STRIDE; at = floats.indexOf(KIND.clip, at + 1)) {
    if (at % STRIDE !== 0) continue; // a coordinate or width of 5, not a command's kind
    const i = at / STRIDE;
    if (added.length) added[added.length - 1].to = i;
    const tile = deviceRect(floats, i, Math.round, Math.round, size.dpr);
    const area = deviceRect(floats, i + 1, Math.ceil, Math.floor, size.dpr);
    const x = Math.max(tile[0], area[0], 0);
    const y = Math.max(tile[1], area[1], 0);
    const width = Math.min(tile[2], area[2], staticCanvas.width) - x;
    const height = Math.min(tile[3], area[3], staticCanvas.height) - y;
    const copy = width > 0 && height > 0 ? [x, y, width, height] : null;
    added.push({ floats, text, from: i, to: count, copy, done: false });
    const b = repaint.bounds;
    [b[0], b[1], b[2], b[3]] = [Math.min(b[0], x), Math.min(b[1], y), Math.max(b[2], x + width), Math.max(b[3], y + height)];
  }
  if (!added.length) return;
  if (repaint.section === repaint.sections.length) repaint.next = added[0].from + 1;
  const first = repaint.sections.length;
  repaint.sections.push(...added);
  repaint.remaining += added.length;
  paintStats.pendingSections += added.length;
  const { dpr } = size;
  const [left, top, right, bottom] = repaint.bounds;
  paintStats.lastRepaint = { x: left / dpr, y: top / dpr, width: (right - left) / dpr, height: (bottom - top) / dpr };
  if (repaint.inWorkers) paintInWorkers(repaint, first);
}

/**
 * Takes the next tiles of a whole layer in parts from the core until about
 * `deadline`, at least one call's worth: the core first sorts the lines
 * into tiles, 10,000 a call (~0.5 ms, ~4 ms the first time; -1: not done),
 * then builds a tile's list a call (~1 ms at 100k lines). The frame that
 * started the layer takes none (`startRepaint`): its first call was that.
 */
function pullParts(deadline) {
  // No call that would likely end past the deadline: one takes about as long as the one before.
  while (repaint?.partsPending) {
    const started = performance.now();
    const count = tt.tt_render_static_part();
    if (count === 0) {
      repaint.partsPending = false;
      paintStats.pendingSections--;
      break;
    }
    if (count > 0) {
      const floats = f32(tt.tt_static_ptr(), count * STRIDE).slice();
      addSections(floats, bytes(tt.tt_static_text_ptr(), tt.tt_static_text_len()).slice(), count);
    }
    const now = performance.now();
    const spent = now - started;
    if (now + spent >= deadline) break;
  }
}

/**
 * Paints the repaint under way until about `deadline` (a `performance.now()`
 * time), copying each section into the cache as it completes; returns the
 * last one copied ([x, y, width, height] in device pixels) or null. With a
 * finite deadline it stops after a copy. A repaint in the tile painters'
 * hands is left to them, unless it must finish now (`deadline` Infinity):
 * then the sections they have not sent yet are painted here.
 */
function continueRepaint(deadline, pull = true) {
  if (repaint?.inWorkers && deadline === Infinity) stopWorkers(repaint); // what is left is painted here, now
  if (repaint?.inWorkers && performance.now() - repaint.heardAt > painterSilenceMs) {
    console.warn('TouchTracker paints on the page thread: the tile painters stopped answering');
    paintersAllowed = false;
    stopWorkers(repaint);
  }
  if (pull && repaint?.partsPending) pullParts(deadline);
  if (repaint?.inWorkers) {
    if (repaint.remaining === 0 && !repaint.partsPending) completeRepaint(); // the painters sent all before the last part
    return null;
  }
  let copied = null;
  const started = performance.now();
  const painting = repaint;
  scratchCtx.setTransform(size.dpr, 0, 0, size.dpr, 0, 0);
  while (repaint && repaint.section < repaint.sections.length) {
    const section = repaint.sections[repaint.section];
    if (section.done) {
      nextSection();
      continue;
    }
    const end = Math.min(section.to, repaint.next + REPAINT_CHUNK);
    clipTo(scratchCtx, section.floats, section.from, size.dpr);
    paint(scratchCtx, section.floats, section.text, repaint.next, end, size.dpr);
    scratchCtx.restore();
    repaint.next = end;
    if (end === section.to) {
      if (copySection(section, scratch)) copied = section.copy;
      nextSection();
    } else {
      scratchCtx.getImageData(0, 0, 1, 1); // the canvas rasterizes what it holds: the clock then counts it
    }
    // After a copy the cache holds the scratch's pixels until it is drawn to the screen: painting on
    // the scratch before that would make the canvas copy all of it first (33 MB at 3840x2160).
    if (performance.now() >= deadline || (copied && deadline !== Infinity)) break;
    if (repaint.section === repaint.sections.length && repaint.partsPending) pullParts(deadline);
  }
  if (painting) painting.paintMs += performance.now() - started;
  if (repaint && repaint.remaining === 0 && !repaint.partsPending) completeRepaint();
  return copied;
}

function nextSection() {
  repaint.section++;
  if (repaint.section < repaint.sections.length) repaint.next = repaint.sections[repaint.section].from + 1;
}

/**
 * Copies a painted section's area from `source` (the scratch canvas, or a
 * tile painter's bitmap of just that area) into the cache, with the lines
 * finished since the repaint began over it. Each section is copied once.
 */
function copySection(section, source) {
  if (section.done) return false;
  section.done = true;
  repaint.remaining--;
  paintStats.pendingSections--;
  if (!section.copy) return false;
  const [x, y, width, height] = section.copy;
  const [sx, sy] = source === scratch ? [x, y] : [0, 0];
  staticCtx.setTransform(1, 0, 0, 1, 0, 0);
  staticCtx.drawImage(source, sx, sy, width, height, x, y, width, height);
  if (repaint.appended.length) paintAppendedOver(section.copy);
  return true;
}

/** The repaint under way is all in the cache: the next change's repaint, if one waits, starts. */
function completeRepaint() {
  const { appended, queue, isWhole, inWorkers, paintMs, startedAt } = repaint;
  repaint = null;
  // A pan over a drawing whose whole paint is slow moves the cache's pixels first (see the top).
  if (isWhole) lastWholeMs = inWorkers ? performance.now() - startedAt : paintMs;
  if (queue.length) {
    // The next change's repaint, with the lines finished after it was taken.
    const [next, ...rest] = queue;
    const later = rest.map((entry) => ({ ...entry, appendedFrom: entry.appendedFrom - next.appendedFrom }));
    startRepaint(next.floats, next.text, next.count, -Infinity, {
      appended: appended.slice(next.appendedFrom),
      queue: later,
    });
    mustRedraw = true;
  }
}

// MARK: The tile painters
//
// Software raster strokes ~10 µs a segment: a whole layer of 100k lines is
// over a second of it. The tile painters (tile-worker.js, one per core up to
// four) paint a whole layer's sections in parallel, off this thread, which
// stays free for input, and send each back as a bitmap of its area, copied
// into the cache as it comes (`takeSection`). Their pixels are this
// thread's: the same painter (commands.js), canvas size and transform. A
// browser without module workers or OffscreenCanvas, or a painter that
// fails, leaves the repaint to this thread (`continueRepaint`).

/**
 * Painters silent this long while sections are owed are taken for dead (a
 * worker can end without an error event): this thread paints the rest, and
 * whole layers from then on. A tile is ~1 s of raster at a million lines.
 */
let painterSilenceMs = 15000;
/** Worker sections copied into the cache since the last frame drew it: their rectangle, device pixels, or null. */
let painterCopies = null;

/** The painters ([] when the browser has none, or they failed; null until first asked for). */
let painters = null;
let paintersAllowed = true;
let repaintGeneration = 0;
/** The painters' messages held back (tests, `holdTilePainters`), or null. */
let heldSections = null;

function tilePainters() {
  if (painters === null) {
    painters = [];
    if (paintersAllowed && typeof OffscreenCanvas === 'function' && typeof Worker === 'function') {
      const count = Math.max(1, Math.min(navigator.hardwareConcurrency || 2, 4));
      try {
        for (let i = 0; i < count; i++) {
          const worker = new Worker(new URL('./tile-worker.js', import.meta.url), { type: 'module' });
          worker.onmessage = ({ data }) => (heldSections ? heldSections.push(data) : takeSection(data));
          worker.onerror = (event) => {
            event.preventDefault();
            takeSection({ generation: repaint?.generation, failed: event.message || 'the tile painter did not start' });
          };
          painters.push(worker);
        }
      } catch {
        painters = [];
      }
    }
  }
  return paintersAllowed && painters.length ? painters : null;
}

/**
 * Starts the painters now (the page starts them while it loads the module
 * and the drawing, so a big drawing's first paint does not wait for them).
 */
export function prepareTilePainters() {
  tilePainters();
}

/**
 * Hands the sections of `r` from position `first` on to the painters, each
 * to the one with the fewest commands so far: each painter gets one message
 * with just its sections' commands.
 */
function paintInWorkers(r, first) {
  const pool = tilePainters();
  if (!pool) {
    r.inWorkers = false; // they were turned off: this thread paints the rest
    return;
  }
  while (r.load.length < pool.length) r.load.push(0);
  const batches = pool.map(() => ({ sections: [], commands: 0 }));
  for (let index = first; index < r.sections.length; index++) {
    const section = r.sections[index];
    let least = 0;
    for (let i = 1; i < pool.length; i++) if (r.load[i] < r.load[least]) least = i;
    r.load[least] += section.to - section.from;
    batches[least].sections.push({ index, section });
    batches[least].commands += section.to - section.from;
  }
  batches.forEach((batch, i) => {
    if (!batch.sections.length) return;
    const floats = new Float32Array(batch.commands * STRIDE);
    let at = 0;
    const sections = batch.sections.map(({ index, section }) => {
      floats.set(section.floats.subarray(section.from * STRIDE, section.to * STRIDE), at * STRIDE);
      const from = at;
      at += section.to - section.from;
      return { index, from, to: at, copy: section.copy };
    });
    const { width, height } = staticCanvas;
    pool[i].postMessage(
      { paint: r.generation, width, height, dpr: size.dpr, floats, text: batch.sections[0].section.text, sections },
      [floats.buffer],
    );
  });
}

/** A painter's message: a painted section (copied in if its repaint is still the one under way), or its failure. */
function takeSection({ generation, index, bitmap, failed }) {
  const current = repaint && repaint.inWorkers && repaint.generation === generation;
  if (failed) {
    paintersAllowed = false; // this page paints by itself from now on
    console.warn(`TouchTracker paints on the page's thread: ${failed}`);
    if (current) stopWorkers(repaint);
    bitmap?.close();
    return;
  }
  if (current) {
    paintStats.workerSections++;
    repaint.heardAt = performance.now();
    const section = repaint.sections[index];
    if (copySection(section, bitmap)) {
      // The next frame copies just these pixels to the screen (a whole copy is 33 MB at 3840x2160).
      painterCopies = painterCopies ? union(painterCopies, section.copy) : section.copy;
    }
    if (repaint.remaining === 0 && !repaint.partsPending) completeRepaint();
  }
  bitmap?.close();
}

/** The painters stop on `r` (dropped, or finished on this thread): the rest of it, if any, is painted here. */
function stopWorkers(r) {
  if (!r.inWorkers) return;
  r.inWorkers = false;
  for (const worker of painters ?? []) worker.postMessage({ cancel: r.generation });
}

/** Paints the lines finished since the repaint began over `area` of the cache (device pixels), which it just copied in. */
function paintAppendedOver([x, y, width, height]) {
  staticCtx.save();
  staticCtx.beginPath();
  staticCtx.rect(x, y, width, height);
  staticCtx.clip();
  staticCtx.setTransform(size.dpr, 0, 0, size.dpr, 0, 0);
  for (const list of repaint.appended) paint(staticCtx, list.floats, list.text, 0, list.count, size.dpr);
  staticCtx.restore();
}

/** Finishes the repaint under way at once: before anything else is painted over the cache, or it is exported. */
export function finishRepaint() {
  if (continueRepaint(Infinity)) mustRedraw = true;
}

function dropRepaint() {
  if (repaint) stopWorkers(repaint);
  repaint = null;
  paintStats.pendingSections = 0;
}

/** Sets the milliseconds a frame may spend on a repaint (tests use 0: a chunk a frame). */
export function setRepaintBudget(ms) {
  repaintBudget = ms;
}

/** Sets how many commands a whole layer may have to be painted at once (tests: Infinity, always at once). */
export function setProgressiveCommands(count) {
  progressiveCommands = count;
  tt.tt_static_parts_above(count); // the core hands out a whole layer of more shapes than that in parts
}

/**
 * Lets the tile painters paint whole layers, or not (this page's thread
 * paints them, as without workers); `silenceMs`: how long they may be silent
 * while sections are owed before this thread takes over for good (15 s).
 */
export function setTilePainters(allowed, silenceMs = painterSilenceMs) {
  paintersAllowed = allowed;
  painterSilenceMs = silenceMs;
}

/**
 * Holds what the tile painters send (nothing is copied in) until released,
 * when it is all taken in order: tests act while a whole layer is painted.
 */
export function holdTilePainters(hold) {
  if (hold) {
    heldSections ??= [];
    return;
  }
  const held = heldSections ?? [];
  heldSections = null;
  for (const message of held) takeSection(message);
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

/** Drops the cached static layer: the next frame paints it whole. */
export function invalidateStaticLayer() {
  staticVersion = -1;
  wholeOwedAt = 0;
  cachedViewport = null;
  dropRepaint();
}

/** Text on screen (menu items, palette buttons) and where it is centered. */
export function liveTexts() {
  const count = tt.tt_render_live();
  const floats = f32(tt.tt_live_ptr(), count * STRIDE);
  const text = bytes(tt.tt_live_text_ptr(), tt.tt_live_text_len());
  mustRedraw = true; // rendering cleared the core's needs-display flag
  const texts = [];
  for (let i = 0; i < count * STRIDE; i += STRIDE) {
    if (floats[i] !== KIND.text) continue;
    texts.push({ text: textAt(text, floats[i + 3], floats[i + 4]), x: floats[i + 1], y: floats[i + 2] });
  }
  return texts;
}

/** The in-progress lines' ends, drawn ahead of the fingers to where the browser predicts them. */
function paintPredictions() {
  let drew = false;
  for (const [id, point] of pointers) {
    if (!point || !tt.tt_probe_line(id)) continue;
    const probe = f32(tt.tt_probe_ptr(), 4);
    const [x, y, width, rgb] = [probe[PROBE.x], probe[PROBE.y], probe[PROBE.width], probe[PROBE.rgb]];
    ctx.beginPath();
    ctx.moveTo(x, y);
    ctx.lineTo(point.x, point.y);
    ctx.strokeStyle = cssColor(rgb);
    ctx.lineWidth = width;
    ctx.stroke();
    drew = true;
  }
  return drew;
}

/** The smallest rectangle holding both ([x, y, width, height]). */
function union(a, b) {
  const [left, top] = [Math.min(a[0], b[0]), Math.min(a[1], b[1])];
  return [left, top, Math.max(a[0] + a[2], b[0] + b[2]) - left, Math.max(a[1] + a[3], b[1] + b[3]) - top];
}

/** Paints what changed since the last frame, if anything did. */
export function draw() {
  const now = performance.now();
  // A whole layer painted over frames (opening, after a pan) may take twice a change's share of a frame.
  const deadline = now + (repaint?.isWhole ? 2 * repaintBudget : repaintBudget);
  let copied = null; // a section of a repaint copied into the cache this frame (device pixels)
  const version = tt.tt_static_version();
  const view = viewportNow();
  const moved = staticVersion !== -1 && cachedViewport && !sameViewport(view, cachedViewport);
  if (version !== staticVersion && moved && lastWholeMs > slowWholeMs) {
    // Panned or zoomed over a drawing that paints slowly: its pixels follow now, the repaint once it is still.
    dropRepaint();
    moveCache(cachedViewport, view);
    cachedViewport = view;
    staticVersion = version;
    wholeOwedAt = now + settleMs;
    mustRedraw = true;
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
    mustRedraw = true;
  } else if (repaint) {
    paintStats.lastRepaintFrames++;
    copied = continueRepaint(deadline);
  }
  if (painterCopies) {
    copied = copied ? union(copied, painterCopies) : painterCopies;
    painterCopies = null;
  }
  paintStats.repaintOwed = wholeOwedAt !== 0;
  // The cache shows the core's static layer whole: a shape let go of after a long press, drawn in the
  // live layer until now (its tiles were still being repainted without it), can leave it.
  if (!repaint && !wholeOwedAt && paintStats.pendingSections === 0 && reportedVersion !== staticVersion) {
    reportedVersion = staticVersion;
    tt.tt_static_painted(staticVersion);
  }
  const predicting = [...pointers.values()].some((p) => p);
  const everything = mustRedraw || tt.tt_needs_display() || predicting || predictedLastFrame;
  if (!everything && !copied) return;
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  if (everything) {
    mustRedraw = false;
    ctx.drawImage(staticCanvas, 0, 0);
  } else {
    // Only that section changed: copy just it (a whole copy is 33 MB at 3840x2160) and paint the
    // live layer, which did not change, again over just it.
    const [x, y, width, height] = copied;
    ctx.drawImage(staticCanvas, x, y, width, height, x, y, width, height);
    ctx.save();
    ctx.beginPath();
    ctx.rect(x, y, width, height);
    ctx.clip();
  }
  ctx.setTransform(size.dpr, 0, 0, size.dpr, 0, 0);
  const count = tt.tt_render_live();
  paint(ctx, f32(tt.tt_live_ptr(), count * STRIDE), bytes(tt.tt_live_text_ptr(), tt.tt_live_text_len()), 0, count, size.dpr);
  if (everything) {
    predictedLastFrame = paintPredictions();
  } else {
    ctx.restore();
  }
}
