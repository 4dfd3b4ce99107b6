// A tile painter: paints sections of a whole static layer (opening a big
// drawing, a resize, the repaint after a pan) off the page's thread, on an
// OffscreenCanvas the cache's size, with the same painter and transform as
// the page (commands.js), so its pixels are the ones the page would paint.
// Each finished section goes back as an ImageBitmap of its area, which the
// page copies into its cache (tile-painters.js hands the sections out,
// repaint.js copies them in).
//
// Messages in:
//   { paint: generation, width, height, dpr, floats, text, sections: [{ index, from, to, copy }] }
//       more sections of repaint `generation` (a whole layer comes in parts):
//       floats holds just these sections' commands (`from`, `to` index them);
//       `copy` is [x, y, width, height] in device pixels, or null.
//   { cancel: generation }   the page no longer wants that repaint.
// Messages out:
//   { generation, index, bitmap }   section `index` is painted (bitmap null: nothing to copy).
//   { generation, failed: message }  this painter could not paint; the page paints the rest itself.

import { clipTo, paint } from './commands.js';

let canvas = null;
let context = null;
/** The repaint the page wants (sections of older ones are dropped), and its sections not painted yet. */
let current = -1;
const queue = [];
let running = false;

self.onmessage = ({ data }) => {
  if ('cancel' in data) {
    if (data.cancel === current) {
      current = -1;
      queue.length = 0;
    }
    return;
  }
  if (data.paint !== current) {
    current = data.paint;
    queue.length = 0;
  }
  const { width, height, dpr, floats, text } = data;
  for (const section of data.sections) queue.push({ ...section, width, height, dpr, floats, text });
  if (!running) {
    running = true;
    run()
      .catch((error) => self.postMessage({ generation: current, failed: String(error?.message ?? error) }))
      .finally(() => (running = false));
  }
};

/** Paints the queued sections one by one; between them, messages (more sections, a cancel) are taken. */
async function run() {
  while (queue.length) {
    const generation = current;
    const { index, from, to, copy, width, height, dpr, floats, text } = queue.shift();
    if (!canvas || canvas.width !== width || canvas.height !== height) {
      canvas = new OffscreenCanvas(width, height);
      context = canvas.getContext('2d');
    }
    context.setTransform(dpr, 0, 0, dpr, 0, 0);
    clipTo(context, floats, from, dpr);
    paint(context, floats, text, from + 1, to, dpr);
    context.restore();
    const bitmap = copy ? await createImageBitmap(canvas, ...copy) : null;
    if (generation === current) {
      self.postMessage({ generation, index, bitmap }, bitmap ? [bitmap] : []);
    } else {
      bitmap?.close();
    }
  }
}
