// Render commands become pixels on a 2D context: the one painter of every
// layer, on the page's canvases and in the tile painters' workers
// (tile-worker.js), so a tile painted in either place has the same pixels.
// Commands are STRIDE floats each: [kind, a, b, c, d, width, rgb, extra]
// (RenderList.swift).

import { KIND, STRIDE, decodeText } from '../core/bridge.js';

const colors = new Map();
export function cssColor(rgb) {
  let color = colors.get(rgb);
  if (!color) {
    color = '#' + (rgb | 0).toString(16).padStart(6, '0');
    colors.set(rgb, color);
  }
  return color;
}

export const textAt = (text, start, length) => decodeText(text.subarray(start, start + length));

/**
 * Paints commands `from..<to` on `c` (its transform already set, CSS pixels
 * at `dpr` device pixels each). Each segment is its own path: Chromium's
 * software raster strokes thousands of short paths faster than one path
 * holding them all (2.5x for a tile of 12,000 segments), and every layer is
 * painted this same way, so a repainted tile matches a whole repaint pixel
 * for pixel. A clip command clips what follows to its rectangle (`clipTo`).
 */
export function paint(c, floats, text, from, to, dpr) {
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
      clipTo(c, floats, i / STRIDE, dpr);
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
export function clipTo(c, floats, index, dpr) {
  const [left, top, right, bottom] = deviceRect(floats, index, Math.round, Math.round, dpr);
  c.save();
  c.beginPath();
  c.rect(left / dpr, top / dpr, (right - left) / dpr, (bottom - top) / dpr);
  c.clip();
}

/** The rectangle of command `index` in device pixels, its left and top rounded by `low`, its right and bottom by `high`. */
export function deviceRect(floats, index, low, high, dpr) {
  const [x, y, w, h] = floats.subarray(index * STRIDE + 1, index * STRIDE + 5);
  return [low(x * dpr), low(y * dpr), high((x + w) * dpr), high((y + h) * dpr)];
}
