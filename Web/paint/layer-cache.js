// The cached static layer: an offscreen canvas the window's size holding the
// finished drawing as the window shows it (panned and zoomed: see
// DrawView+Viewport.swift), and what the modules that keep it up to date
// share: static-layer.js decides what to paint into it, repaint.js and
// tile-painters.js paint it over frames, canvas.js copies it to the screen.

/** The cached static layer. */
export const staticCanvas = document.createElement('canvas');
export const staticCtx = staticCanvas.getContext('2d');
/** The window's size (CSS pixels) and pixel ratio, which the cache's pixels are made for (canvas.js follows them). */
export const size = { width: 0, height: 0, dpr: 1 };
export const BACKGROUND = '#c8c8c8'; // DrawView.backgroundGray

/**
 * Where repaint sections are painted before their area is copied into the
 * cache (repaint.js), and a moved cache's pixels on their way back into it
 * (static-layer.js); sized on first use (`fitScratch`).
 */
export const scratch = document.createElement('canvas');
export const scratchCtx = scratch.getContext('2d');

/** Gives the scratch canvas the cache's size, if it has another. */
export function fitScratch() {
  if (scratch.width !== staticCanvas.width || scratch.height !== staticCanvas.height) {
    [scratch.width, scratch.height] = [staticCanvas.width, staticCanvas.height];
  }
}

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
  /** Sections of whole layers the tile painters painted (tile-painters.js). */
  workerSections: 0,
  /** A pan or zoom moved the cache's pixels, and the whole repaint waits for the viewport to be still. */
  repaintOwed: false,
};

/** How long the last whole paint took, ms: above slowWholeMs a pan or zoom moves the cache's pixels first (static-layer.js). */
export const wholePaint = { ms: 0 };

let redrawOwed = true;

/** The next frame draws the whole cache (and the live layer) to the screen, not just the sections copied in since. */
export function redrawWhole() {
  redrawOwed = true;
}

/** Whether the next frame must draw the whole cache; asking settles it. */
export function takeRedrawWhole() {
  const owed = redrawOwed;
  redrawOwed = false;
  return owed;
}
