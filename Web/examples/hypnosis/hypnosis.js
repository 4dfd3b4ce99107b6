// The engine's example in the browser: the same host layer as the drawing
// app's page (pointer events reported a finger at a time, committed once a
// frame through TouchFeed; the render list painted by paint/commands.js), on
// a module built from TouchKit and Examples/Hypnosis alone
// (Scripts/build-wasm.sh --example).

import { PHASE, STATUS, STRIDE } from '../../core/bridge.js';
import { paint } from '../../paint/commands.js';

const canvas = document.getElementById('canvas');
const ctx = canvas.getContext('2d');
const { instance } = await WebAssembly.instantiateStreaming(fetch('hypnosis.wasm'), {});
const hy = instance.exports;
const seconds = (ms) => ms / 1000;
const tracked = new Set(); // pointers the core has down
let size = { width: 0, height: 0, dpr: 0 };
let dirty = true;

function resize() {
  const dpr = window.devicePixelRatio || 1;
  const { clientWidth: width, clientHeight: height } = canvas;
  if (width === size.width && height === size.height && dpr === size.dpr) return;
  const first = size.width === 0;
  size = { width, height, dpr };
  canvas.width = Math.round(width * dpr);
  canvas.height = Math.round(height * dpr);
  if (first) hy.hypnosis_init(width, height);
  else hy.hypnosis_resize(width, height);
  dirty = true;
}

function report(event, phase) {
  if (phase !== PHASE.began && !tracked.has(event.pointerId)) return;
  const box = canvas.getBoundingClientRect();
  const status = hy.hypnosis_touch(
    event.pointerId, phase, event.clientX - box.left, event.clientY - box.top, seconds(event.timeStamp));
  if (status === STATUS.queued && phase === PHASE.began) tracked.add(event.pointerId);
  if (status !== STATUS.queued || phase === PHASE.ended || phase === PHASE.cancelled) tracked.delete(event.pointerId);
  dirty = true;
}

canvas.addEventListener('pointerdown', (e) => {
  canvas.setPointerCapture(e.pointerId);
  report(e, PHASE.began);
});
canvas.addEventListener('pointermove', (e) => report(e, PHASE.moved));
canvas.addEventListener('pointerup', (e) => report(e, PHASE.ended));
canvas.addEventListener('pointercancel', (e) => report(e, PHASE.cancelled));

function frame(now) {
  resize();
  hy.hypnosis_commit(seconds(now));
  hy.hypnosis_tick(seconds(now));
  if (dirty) {
    dirty = false;
    const count = hy.hypnosis_render();
    const memory = hy.memory.buffer;
    const floats = new Float32Array(memory, hy.hypnosis_floats() >>> 0, count * STRIDE);
    const text = new Uint8Array(memory, hy.hypnosis_text() >>> 0, hy.hypnosis_text_length());
    ctx.setTransform(size.dpr, 0, 0, size.dpr, 0, 0);
    ctx.clearRect(0, 0, size.width, size.height);
    paint(ctx, floats, text, 0, count, size.dpr);
  }
  requestAnimationFrame(frame);
}

// What tests and the curious can read.
window.hypnosis = {
  ringSpacing: () => hy.hypnosis_ring_spacing(),
  colorIndex: () => hy.hypnosis_color_index(),
};
requestAnimationFrame(frame);
