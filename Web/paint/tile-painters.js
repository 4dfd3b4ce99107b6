// The tile painters. Software raster strokes ~10 µs a segment: a whole layer
// of 100k lines is over a second of it. The tile painters (tile-worker.js,
// one per core up to four) paint a whole layer's sections in parallel, off
// the page's thread, which stays free for input, and send each back as a
// bitmap of its area, which repaint.js copies into the cache as it comes.
// Their pixels are the page thread's: the same painter (commands.js), canvas
// size and transform. A browser without module workers or OffscreenCanvas,
// or a painter that fails, leaves the repaint to the page's thread
// (repaint.js, `continueRepaint`).

import { STRIDE } from '../core/bridge.js';
import { size, staticCanvas } from './layer-cache.js';

/**
 * Painters silent this long while sections are owed are taken for dead (a
 * worker can end without an error event): this thread paints the rest, and
 * whole layers from then on. A tile is ~1 s of raster at a million lines.
 */
let painterSilenceMs = 15000;

/** The painters ([] when the browser has none, or they failed; null until first asked for). */
let painters = null;
let paintersAllowed = true;
/** The painters' messages held back (tests, `holdTilePainters`), or null. */
let heldSections = null;
/** Takes the painters' messages (repaint.js, `onPainterMessage`). */
let deliver = () => {};

/**
 * Hands the painters' messages to `handler`: { generation, index, bitmap }
 * for a painted section of repaint `generation`, { generation, failed } for
 * a painter that could not paint, and { failed } (no generation) for a
 * painter's error event, which concerns whatever repaint is under way.
 */
export function onPainterMessage(handler) {
  deliver = handler;
}

/** The painters, started on first use; null when whole layers are painted on this thread. */
export function tilePainters() {
  if (painters === null) {
    painters = [];
    if (paintersAllowed && typeof OffscreenCanvas === 'function' && typeof Worker === 'function') {
      const count = Math.max(1, Math.min(navigator.hardwareConcurrency || 2, 4));
      try {
        for (let i = 0; i < count; i++) {
          const worker = new Worker(new URL('./tile-worker.js', import.meta.url), { type: 'module' });
          worker.onmessage = ({ data }) => (heldSections ? heldSections.push(data) : deliver(data));
          worker.onerror = (event) => {
            event.preventDefault();
            deliver({ failed: event.message || 'the tile painter did not start' });
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
 * Hands the sections of repaint `r` from position `first` on to the
 * painters, each to the one with the fewest commands so far: each painter
 * gets one message with just its sections' commands.
 */
export function paintInWorkers(r, first) {
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

/** The painters stop on `r` (dropped, or finished on this thread): the rest of it, if any, is painted here. */
export function stopWorkers(r) {
  if (!r.inWorkers) return;
  r.inWorkers = false;
  for (const worker of painters ?? []) worker.postMessage({ cancel: r.generation });
}

/** A painter failed: this page paints by itself from now on, the rest of `r` (if given: still under way) included. */
export function paintersFailed(why, r) {
  paintersAllowed = false;
  console.warn(`TouchTracker paints on the page's thread: ${why}`);
  if (r) stopWorkers(r);
}

/** If `r` is in the painters' hands and they have been silent too long (`painterSilenceMs`), this thread takes over for good. */
export function stopIfSilent(r) {
  if (!r.inWorkers || performance.now() - r.heardAt <= painterSilenceMs) return;
  console.warn('TouchTracker paints on the page thread: the tile painters stopped answering');
  paintersAllowed = false;
  stopWorkers(r);
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
  for (const message of held) deliver(message);
}
