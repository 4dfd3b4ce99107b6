// Repaints: a list's tile sections (each starts with a clip command to its
// tile, then a fill of its area) painted into the cache (layer-cache.js)
// over as many frames as it takes, a few milliseconds a frame, or, for a
// whole layer, by the tile painters (tile-painters.js) when the browser has
// them. A tile is always painted clipped to itself: a canvas rasterizes a
// line a little differently under another clip. So a section is painted on
// `scratch` (the cache's size) clipped to its whole tile, and only its area
// (its fill command's rectangle, within the tile) is copied into the cache:
// the same pixels a whole repaint gives. Each section is copied once it is
// complete: the screen shows every pixel either as it was or as it is, never
// half painted. Lines finished while a whole layer is repainted are painted
// over each tile it copies in, so none goes missing; the repaints of other
// changes made meanwhile run after it, in order.

import { KIND, STRIDE, bytes, f32, tt } from '../core/bridge.js';
import { clipTo, deviceRect, paint } from './commands.js';
import { fitScratch, paintStats, redrawWhole, scratch, scratchCtx, size, staticCanvas, staticCtx, wholePaint } from './layer-cache.js';
import { onPainterMessage, paintInWorkers, paintersFailed, stopIfSilent, stopWorkers, tilePainters } from './tile-painters.js';

/** Milliseconds of a frame that bringing the cache up to date may take (the core's part counted): the rest of a repaint goes on in the next frames. */
let repaintBudget = 7;
/** Commands painted between two looks at the clock (each look makes the canvas rasterize what it was given). */
const REPAINT_CHUNK = 24;
/** The repaint under way (read it, never assign it, outside this module): its list (copied out of the core), its sections and how far it got. */
export let repaint = null;
let repaintGeneration = 0;
/** Worker sections copied into the cache since the last frame drew it: their rectangle, device pixels, or null. */
let painterCopies = null;

/** When a frame that starts at `now` is to stop bringing the cache up to date. */
export function frameDeadline(now) {
  // A whole layer painted over frames (opening, after a pan) may take twice a change's share of a frame.
  return now + (repaint?.isWhole ? 2 * repaintBudget : repaintBudget);
}

/**
 * Starts a repaint of a list (a whole one if `whole`; `inParts`: its first
 * tile, the others to come from the core). A whole layer (seconds of raster
 * at 100k lines) is painted by the tile painters when the browser has them
 * (see `paintInWorkers`); anything else here, a few milliseconds a frame.
 */
export function startRepaint(floats, text, count, deadline, carried = { appended: [], queue: [] }, whole = false, inParts = false) {
  fitScratch();
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
    /** Repaints of changes made since it began, to run after it in order (see `queueAfterRepaint`). */
    queue: carried.queue,
    isWhole: whole,
    /** The tile painters paint it: this page's thread only copies their sections in (and finishes it if asked to). */
    inWorkers: whole && tilePainters() !== null,
    /** Commands handed to each painter so far (the next section goes to the least busy). */
    load: [],
    /** When the painters last sent a section (or were given the first): see `stopIfSilent`. */
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
export function continueRepaint(deadline, pull = true) {
  if (repaint?.inWorkers && deadline === Infinity) stopWorkers(repaint); // what is left is painted here, now
  if (repaint) stopIfSilent(repaint);
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
  // A pan over a drawing whose whole paint is slow moves the cache's pixels first (static-layer.js).
  if (isWhole) wholePaint.ms = inWorkers ? performance.now() - startedAt : paintMs;
  if (queue.length) {
    // The next change's repaint, with the lines finished after it was taken.
    const [next, ...rest] = queue;
    const later = rest.map((entry) => ({ ...entry, appendedFrom: entry.appendedFrom - next.appendedFrom }));
    startRepaint(next.floats, next.text, next.count, -Infinity, {
      appended: appended.slice(next.appendedFrom),
      queue: later,
    });
    redrawWhole();
  }
}

/**
 * A tile painter's message (see `onPainterMessage`): a painted section,
 * copied in if its repaint is still the one under way, or a failure.
 */
function takeSection({ generation, index, bitmap, failed }) {
  const current = repaint && repaint.inWorkers && (generation === undefined || repaint.generation === generation);
  if (failed) {
    paintersFailed(failed, current ? repaint : null);
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

onPainterMessage(takeSection);

/** `copied` (a rectangle of the cache, device pixels, or null) with the painters' sections copied in since the last frame. */
export function withPainterCopies(copied) {
  if (!painterCopies) return copied;
  const all = copied ? union(copied, painterCopies) : painterCopies;
  painterCopies = null;
  return all;
}

/** The smallest rectangle holding both ([x, y, width, height]). */
function union(a, b) {
  const [left, top] = [Math.min(a[0], b[0]), Math.min(a[1], b[1])];
  return [left, top, Math.max(a[0] + a[2], b[0] + b[2]) - left, Math.max(a[1] + a[3], b[1] + b[3]) - top];
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

/** Lines finished while a whole repaint is under way (an append list, just painted over the cache): painted again over each tile it copies in later. */
export function appendDuringRepaint(list) {
  repaint.appended.push(list);
}

/** The repaint of a change made while a whole one is under way: it runs after it, in order (its list is relative to the version the whole one was built from). */
export function queueAfterRepaint(list) {
  repaint.queue.push({ ...list, appendedFrom: repaint.appended.length });
}

/** Finishes the repaint under way at once: before anything else is painted over the cache, or it is exported. */
export function finishRepaint() {
  if (continueRepaint(Infinity)) redrawWhole();
}

export function dropRepaint() {
  if (repaint) stopWorkers(repaint);
  repaint = null;
  paintStats.pendingSections = 0;
}

/** Sets the milliseconds a frame may spend on a repaint (tests use 0: a chunk a frame). */
export function setRepaintBudget(ms) {
  repaintBudget = ms;
}
