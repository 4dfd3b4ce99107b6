// Render lists become pixels. The core keeps two layers: a static one (the
// finished drawing), cached in an offscreen canvas (layer-cache.js) and
// repainted only when the core's static version moves (static-layer.js, over
// frames by repaint.js and tile-painters.js), and a live one (lines in
// progress, selection, menus, palette) painted over it every frame that
// needs it. This module paints the frames on the window's canvas: the cache,
// the live layer over it, and the in-progress lines' ends ahead of the
// fingers. The page's other modules import the painting's controls from here.

import { KIND, PROBE, STRIDE, bytes, f32, tt } from '../core/bridge.js';
import { cssColor, paint, textAt } from './commands.js';
import { pointers } from '../input/pointers.js';
import { redrawWhole, size, staticCanvas, takeRedrawWhole } from './layer-cache.js';
import { invalidateStaticLayer, updateStaticLayer } from './static-layer.js';

export { paintStats, staticCanvas } from './layer-cache.js';
export { finishRepaint, setRepaintBudget } from './repaint.js';
export { invalidateStaticLayer, setProgressiveCommands, setSlowWholeMs } from './static-layer.js';
export { holdTilePainters, prepareTilePainters, setTilePainters } from './tile-painters.js';

const canvas = document.getElementById('canvas');
const ctx = canvas.getContext('2d');
let predictedLastFrame = false;

/** Follows the window's size and pixel ratio; clears the cache when they change. */
export function resize() {
  const dpr = window.devicePixelRatio || 1;
  const width = document.documentElement.clientWidth;
  const height = document.documentElement.clientHeight;
  if (width === size.width && height === size.height && dpr === size.dpr) return;
  Object.assign(size, { width, height, dpr });
  for (const c of [canvas, staticCanvas]) {
    c.width = Math.round(width * dpr);
    c.height = Math.round(height * dpr);
  }
  tt.tt_resize(width, height);
  invalidateStaticLayer();
  redrawWhole();
}

/** Text on screen (menu items, palette buttons) and where it is centered. */
export function liveTexts() {
  const count = tt.tt_render_live();
  const floats = f32(tt.tt_live_ptr(), count * STRIDE);
  const text = bytes(tt.tt_live_text_ptr(), tt.tt_live_text_len());
  redrawWhole(); // rendering cleared the core's needs-display flag
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
  const copied = updateStaticLayer(); // a section of a repaint copied into the cache this frame (device pixels)
  const predicting = [...pointers.values()].some((p) => p);
  const everything = takeRedrawWhole() || tt.tt_needs_display() || predicting || predictedLastFrame;
  if (!everything && !copied) return;
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  if (everything) {
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
