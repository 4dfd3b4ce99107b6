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
// input while a 100k-line drawing appears.

import { KIND, PROBE, STATIC, STRIDE, bytes, decodeText, f32, tt } from '../core/bridge.js';
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
  pendingSections: 0,
  /** A pan or zoom moved the cache's pixels, and the whole repaint waits for the viewport to be still. */
  repaintOwed: false,
};
/** The repaint under way: its list (copied out of the core), its sections and how far it got. */
let repaint = null;
let staticVersion = -1; // -1: the cache is empty and must be painted whole
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

const colors = new Map();
function cssColor(rgb) {
  let color = colors.get(rgb);
  if (!color) {
    color = '#' + (rgb | 0).toString(16).padStart(6, '0');
    colors.set(rgb, color);
  }
  return color;
}

const textAt = (text, start, length) => decodeText(text.subarray(start, start + length));

/**
 * Paints commands `from..<to`. Each segment is its own path: Chromium's
 * software raster strokes thousands of short paths faster than one path
 * holding them all (2.5x for a tile of 12,000 segments), and every layer is
 * painted this same way, so a repainted tile matches a whole repaint pixel
 * for pixel. A clip command clips what follows to its rectangle (`clipTo`).
 */
function paint(c, floats, text, from, to) {
  let stroke = null; // the stroke style and width set last, to set them only when they change
  let width = -1;
  let clipped = false;
  c.lineCap = 'round';
  for (let i = from * STRIDE; i < to * STRIDE; i += STRIDE) {
    const kind = floats[i];
    const color = cssColor(floats[i + 6]);
    if (kind === KIND.segment) {
      if (color !== stroke) c.strokeStyle = stroke = color;
      if (floats[i + 5] !== width) c.lineWidth = width = floats[i + 5];
      c.beginPath();
      c.moveTo(floats[i + 1], floats[i + 2]);
      c.lineTo(floats[i + 3], floats[i + 4]);
      c.stroke();
      continue;
    }
    [stroke, width] = [null, -1]; // other commands set their own styles
    if (kind === KIND.clip) {
      if (clipped) c.restore();
      clipTo(c, floats, i / STRIDE);
      clipped = true;
    } else if (kind === KIND.circle) {
      c.beginPath();
      c.arc(floats[i + 1], floats[i + 2], floats[i + 3], 0, 2 * Math.PI);
      c.strokeStyle = color;
      c.lineWidth = floats[i + 5];
      c.stroke();
    } else if (kind === KIND.fill) {
      c.fillStyle = color;
      const [x, y, w, h, radius] = [floats[i + 1], floats[i + 2], floats[i + 3], floats[i + 4], floats[i + 7]];
      if (radius > 0 && c.roundRect) {
        c.beginPath();
        c.roundRect(x, y, w, h, radius);
        c.fill();
      } else {
        c.fillRect(x, y, w, h);
      }
    } else if (kind === KIND.text) {
      c.fillStyle = color;
      c.font = `${floats[i + 5]}px -apple-system, BlinkMacSystemFont, "Segoe UI", system-ui, sans-serif`;
      c.textAlign = 'center';
      c.textBaseline = 'middle';
      c.fillText(textAt(text, floats[i + 3], floats[i + 4]), floats[i + 1], floats[i + 2]);
    }
  }
  if (clipped) c.restore();
}

/** Saves `c` and clips it to clip command `index`, snapped to whole device pixels (neighboring tiles neither overlap nor leave a gap). */
function clipTo(c, floats, index) {
  const [left, top, right, bottom] = deviceRect(floats, index, Math.round, Math.round);
  const { dpr } = size;
  c.save();
  c.beginPath();
  c.rect(left / dpr, top / dpr, (right - left) / dpr, (bottom - top) / dpr);
  c.clip();
}

/** The rectangle of command `index` in device pixels, its left and top rounded by `low`, its right and bottom by `high`. */
function deviceRect(floats, index, low, high) {
  const { dpr } = size;
  const [x, y, w, h] = floats.subarray(index * STRIDE + 1, index * STRIDE + 5);
  return [low(x * dpr), low(y * dpr), high((x + w) * dpr), high((y + h) * dpr)];
}

/**
 * Brings the cache up to date with the core's list. `progressive`: a whole
 * list is painted as a repaint (tile by tile over frames) over what the
 * cache shows, not at once.
 */
function paintStaticLayer(whole, deadline, { progressive = false } = {}) {
  const started = performance.now();
  const count = tt.tt_render_static(whole ? 1 : 0);
  const floats = f32(tt.tt_static_ptr(), count * STRIDE);
  const text = bytes(tt.tt_static_text_ptr(), tt.tt_static_text_len());
  const mode = tt.tt_static_mode();
  staticCtx.setTransform(size.dpr, 0, 0, size.dpr, 0, 0);
  const big = mode === STATIC.whole && count > progressiveCommands;
  if (mode === STATIC.repaint || (mode === STATIC.whole && (progressive || big))) {
    paintStats[mode === STATIC.whole ? 'whole' : 'repaint']++;
    if (big && !progressive) {
      // Opening a big drawing, a resize, a load: the background at once, then tile by tile,
      // each a few ms of a frame, so input never waits for all of it; pans meanwhile move pixels.
      staticCtx.fillStyle = BACKGROUND;
      staticCtx.fillRect(0, 0, size.width, size.height);
      lastWholeMs = Math.max(lastWholeMs, slowWholeMs + 1);
    }
    startRepaint(floats.slice(), text.slice(), count, deadline);
    if (mode === STATIC.whole) repaint.isWhole = true;
    return;
  }
  if (mode === STATIC.whole) {
    paintStats.whole++;
    staticCtx.clearRect(0, 0, size.width, size.height);
  } else {
    paintStats.append++;
  }
  paint(staticCtx, floats, text, 0, count);
  if (mode === STATIC.whole) lastWholeMs = performance.now() - started;
}

/**
 * A change while a whole repaint is under way (`repaint.isWhole`: seconds
 * at 100k lines). New lines go over the cache now and again over each tile
 * it copies in later; a repaint of what a change touched waits for it (it
 * is relative to the version the whole one was built from) and runs after
 * it, in order; a whole list (a clear, a load) starts it over with that list.
 * Restarting on every change would never finish while others draw.
 */
function takeUpdateDuringWholeRepaint(deadline) {
  const count = tt.tt_render_static(0);
  const floats = f32(tt.tt_static_ptr(), count * STRIDE).slice();
  const text = bytes(tt.tt_static_text_ptr(), tt.tt_static_text_len()).slice();
  const mode = tt.tt_static_mode();
  if (mode === STATIC.append) {
    paintStats.append++;
    staticCtx.setTransform(size.dpr, 0, 0, size.dpr, 0, 0);
    paint(staticCtx, floats, text, 0, count);
    repaint.appended.push({ floats, text, count });
  } else if (mode === STATIC.repaint) {
    paintStats.repaint++;
    repaint.queue.push({ floats, text, count, appendedFrom: repaint.appended.length });
  } else {
    paintStats.whole++;
    dropRepaint();
    startRepaint(floats, text, count, deadline);
    repaint.isWhole = true;
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
 * Takes a repaint list: its sections (a clip to the tile, then a fill of
 * the area, then the shapes) and, for each, the device pixels to copy: the
 * fill's rectangle rounded inward (each of them fully painted), within the
 * tile's clip.
 */
function startRepaint(floats, text, count, deadline, carried = { appended: [], queue: [] }) {
  const sections = [];
  let [left, top, right, bottom] = [Infinity, Infinity, -Infinity, -Infinity];
  for (let i = 0; i < count; i++) {
    if (floats[i * STRIDE] !== KIND.clip) continue;
    if (sections.length) sections[sections.length - 1].to = i;
    const tile = deviceRect(floats, i, Math.round, Math.round);
    const area = deviceRect(floats, i + 1, Math.ceil, Math.floor);
    const x = Math.max(tile[0], area[0], 0);
    const y = Math.max(tile[1], area[1], 0);
    const width = Math.min(tile[2], area[2], staticCanvas.width) - x;
    const height = Math.min(tile[3], area[3], staticCanvas.height) - y;
    sections.push({ from: i, to: count, copy: width > 0 && height > 0 ? [x, y, width, height] : null });
    [left, top] = [Math.min(left, x), Math.min(top, y)];
    [right, bottom] = [Math.max(right, x + width), Math.max(bottom, y + height)];
  }
  const { dpr } = size;
  paintStats.lastRepaint = { x: left / dpr, y: top / dpr, width: (right - left) / dpr, height: (bottom - top) / dpr };
  if (scratch.width !== staticCanvas.width || scratch.height !== staticCanvas.height) {
    [scratch.width, scratch.height] = [staticCanvas.width, staticCanvas.height];
  }
  repaint = {
    floats,
    text,
    sections,
    section: 0,
    next: sections.length ? sections[0].from + 1 : 0,
    /** Lines finished since it began (append lists), painted again over each tile it copies in. */
    appended: carried.appended,
    /** Repaints of changes made since it began, to run after it in order (see takeUpdateDuringWholeRepaint). */
    queue: carried.queue,
    isWhole: false,
    /** Milliseconds spent painting it so far (a whole one's total is the next `lastWholeMs`). */
    paintMs: 0,
  };
  paintStats.pendingSections = sections.length;
  paintStats.lastRepaintFrames = 1;
  continueRepaint(deadline);
}

/**
 * Paints the repaint under way until about `deadline` (a `performance.now()`
 * time), copying each section into the cache as it completes; returns the
 * last one copied ([x, y, width, height] in device pixels) or null. With a
 * finite deadline it stops after a copy.
 */
function continueRepaint(deadline) {
  let copied = null;
  const started = performance.now();
  const painting = repaint;
  scratchCtx.setTransform(size.dpr, 0, 0, size.dpr, 0, 0);
  while (repaint && repaint.section < repaint.sections.length) {
    const section = repaint.sections[repaint.section];
    const end = Math.min(section.to, repaint.next + REPAINT_CHUNK);
    clipTo(scratchCtx, repaint.floats, section.from);
    paint(scratchCtx, repaint.floats, repaint.text, repaint.next, end);
    scratchCtx.restore();
    repaint.next = end;
    if (end === section.to) {
      if (section.copy) {
        const [x, y, width, height] = section.copy;
        staticCtx.setTransform(1, 0, 0, 1, 0, 0);
        staticCtx.drawImage(scratch, x, y, width, height, x, y, width, height);
        if (repaint.appended.length) paintAppendedOver(section.copy);
        copied = section.copy;
      }
      repaint.section++;
      paintStats.pendingSections--;
      if (repaint.section < repaint.sections.length) repaint.next = repaint.sections[repaint.section].from + 1;
    } else {
      scratchCtx.getImageData(0, 0, 1, 1); // the canvas rasterizes what it holds: the clock then counts it
    }
    // After a copy the cache holds the scratch's pixels until it is drawn to the screen: painting on
    // the scratch before that would make the canvas copy all of it first (33 MB at 3840x2160).
    if (performance.now() >= deadline || (copied && deadline !== Infinity)) break;
  }
  if (painting) painting.paintMs += performance.now() - started;
  if (repaint && repaint.section === repaint.sections.length) {
    const { appended, queue, isWhole, paintMs } = repaint;
    repaint = null;
    if (isWhole) lastWholeMs = paintMs;
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
  return copied;
}

/** Paints the lines finished since the repaint began over `area` of the cache (device pixels), which it just copied in. */
function paintAppendedOver([x, y, width, height]) {
  staticCtx.save();
  staticCtx.beginPath();
  staticCtx.rect(x, y, width, height);
  staticCtx.clip();
  staticCtx.setTransform(size.dpr, 0, 0, size.dpr, 0, 0);
  for (const list of repaint.appended) paint(staticCtx, list.floats, list.text, 0, list.count);
  staticCtx.restore();
}

/** Finishes the repaint under way at once: before anything else is painted over the cache, or it is exported. */
export function finishRepaint() {
  if (continueRepaint(Infinity)) mustRedraw = true;
}

function dropRepaint() {
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
  paintStats.repaintOwed = wholeOwedAt !== 0;
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
  paint(ctx, f32(tt.tt_live_ptr(), count * STRIDE), bytes(tt.tt_live_text_ptr(), tt.tt_live_text_len()), 0, count);
  if (everything) {
    predictedLastFrame = paintPredictions();
  } else {
    ctx.restore();
  }
}
