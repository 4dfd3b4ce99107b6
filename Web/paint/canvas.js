// Render lists become pixels. The core keeps two layers: a static one (the
// finished drawing), cached here in an offscreen canvas and repainted only
// when the core's static version moves, and a live one (lines in progress,
// selection, menus, palette) painted over it every frame that needs it.
//
// Cache protocol: `tt_static_version()` changes whenever the static layer
// changed; `tt_render_static(whole)` then returns what to paint, in tiles
// (each section starts with a clip command), and `tt_static_mode()` says
// what it is: STATIC.whole (clear the cache, paint every tile), STATIC.append
// (new lines over the tiles they meet) or STATIC.repaint (the tiles a change
// touched, each filled with the background and painted again). A tile is
// always painted clipped to itself, so a repaint of some tiles gives exactly
// the pixels a repaint of all would. `whole` forces everything, for a cache
// this page cleared itself (resize, first frame). See DrawView+Tiles.swift.

import { KIND, PROBE, STATIC, STRIDE, bytes, decodeText, f32, tt } from '../core/bridge.js';
import { pointers } from '../input/pointers.js';

const canvas = document.getElementById('canvas');
const ctx = canvas.getContext('2d');
/** The cached static layer, also what "Export PNG" saves. */
export const staticCanvas = document.createElement('canvas');
const staticCtx = staticCanvas.getContext('2d');

let size = { width: 0, height: 0, dpr: 1 };
/** How the static layer was brought up to date, by mode, and the last repainted rectangle (for tests). */
export const paintStats = { whole: 0, append: 0, repaint: 0, lastRepaint: null };
let staticVersion = -1; // -1: the cache is empty and must be painted whole
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
 * Paints `count` commands. Each segment is its own path: Chromium's software
 * raster strokes thousands of short paths faster than one path holding them
 * all (2.5x for a tile of 12,000 segments), and every layer is painted this
 * same way, so a repainted tile matches a whole repaint pixel for pixel.
 * A clip command clips what follows to its rectangle (snapped to whole
 * device pixels, so neighboring tiles neither overlap nor leave a gap).
 */
function paint(c, count, floats, text) {
  let stroke = null; // the stroke style and width set last, to set them only when they change
  let width = -1;
  let clipped = false;
  c.lineCap = 'round';
  for (let i = 0; i < count * STRIDE; i += STRIDE) {
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
      const { dpr } = size;
      const snap = (value) => Math.round(value * dpr) / dpr;
      const [left, top] = [snap(floats[i + 1]), snap(floats[i + 2])];
      c.save();
      c.beginPath();
      c.rect(left, top, snap(floats[i + 1] + floats[i + 3]) - left, snap(floats[i + 2] + floats[i + 4]) - top);
      c.clip();
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

function paintStaticLayer(whole) {
  const count = tt.tt_render_static(whole ? 1 : 0);
  const floats = f32(tt.tt_static_ptr(), count * STRIDE);
  const text = bytes(tt.tt_static_text_ptr(), tt.tt_static_text_len());
  const mode = tt.tt_static_mode();
  staticCtx.setTransform(size.dpr, 0, 0, size.dpr, 0, 0);
  if (mode === STATIC.whole) {
    paintStats.whole++;
    staticCtx.clearRect(0, 0, size.width, size.height);
  } else if (mode === STATIC.append) {
    paintStats.append++;
  } else {
    paintStats.repaint++;
    paintStats.lastRepaint = tilesIn(floats, count);
  }
  paint(staticCtx, count, floats, text);
}

/** The rectangle around the tiles (clip commands) of a list, for tests. */
function tilesIn(floats, count) {
  let [left, top, right, bottom] = [Infinity, Infinity, -Infinity, -Infinity];
  for (let i = 0; i < count * STRIDE; i += STRIDE) {
    if (floats[i] !== KIND.clip) continue;
    left = Math.min(left, floats[i + 1]);
    top = Math.min(top, floats[i + 2]);
    right = Math.max(right, floats[i + 1] + floats[i + 3]);
    bottom = Math.max(bottom, floats[i + 2] + floats[i + 4]);
  }
  return { x: left, y: top, width: right - left, height: bottom - top };
}

/** Drops the cached static layer: the next frame paints it whole. */
export function invalidateStaticLayer() {
  staticVersion = -1;
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
  const version = tt.tt_static_version();
  if (version !== staticVersion) {
    const whole = staticVersion === -1;
    staticVersion = version;
    paintStaticLayer(whole);
    mustRedraw = true;
  }
  const predicting = [...pointers.values()].some((p) => p);
  if (!mustRedraw && !tt.tt_needs_display() && !predicting && !predictedLastFrame) return;
  mustRedraw = false;
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.drawImage(staticCanvas, 0, 0);
  ctx.setTransform(size.dpr, 0, 0, size.dpr, 0, 0);
  const count = tt.tt_render_live();
  paint(ctx, count, f32(tt.tt_live_ptr(), count * STRIDE), bytes(tt.tt_live_text_ptr(), tt.tt_live_text_len()));
  predictedLastFrame = paintPredictions();
}
