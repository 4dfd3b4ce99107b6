// Pan and zoom: the wheel pans, Ctrl+wheel (and a trackpad's
// pinch, which browsers send as Ctrl+wheel) zooms about the pointer,
// Space+drag or a middle-button drag pans, the keys + - 0 and Shift+1 zoom
// in, out, to 100% and to fit, and the zoom buttons do the same. Two
// fingers on a touch screen are the core's (CanvasGestureRecognizer): this
// page only feeds them as touches. Every change goes to the core
// (`tt_viewport`), which records it and repaints the drawing for it.

import { VIEWPORT, tt } from '../core/bridge.js';

/** Pointers dragging the drawing (Space held, or the middle button): pointerId -> last position. */
const drags = new Map();
let spaceHeld = false;
/** Called after every change of the viewport, by anyone (the zoom label, presence): see `viewportFrame`. */
const listeners = [];

export const onViewportChange = (listener) => listeners.push(listener);

/** The drawing's point at the window's top-left corner and the zoom. */
export function viewport() {
  if (!tt?.tt_viewport_value) return { x: 0, y: 0, zoom: 1 };
  return { x: tt.tt_viewport_value(0), y: tt.tt_viewport_value(1), zoom: tt.tt_viewport_value(2) };
}

/** Runs a `VIEWPORT` command in the core; true if it did. */
export function changeViewport(command, a = 0, b = 0, c = 0) {
  if (!tt?.tt_viewport) return false;
  return tt.tt_viewport(command, a, b, c) === 1;
}

/** A wheel movement in CSS pixels (lines and pages as browsers size them). */
function wheelPixels(event) {
  const unit = event.deltaMode === 1 ? 16 : event.deltaMode === 2 ? document.documentElement.clientHeight : 1;
  return [event.deltaX * unit, event.deltaY * unit];
}

/**
 * Whether this pointerdown drags the drawing instead of touching it (Space
 * held, or the middle button); if so the drag is taken here.
 */
export function startDrag(canvas, event) {
  const middle = event.pointerType === 'mouse' && event.button === 1;
  if (!middle && !(spaceHeld && event.pointerType !== 'touch')) return false;
  event.preventDefault();
  canvas.setPointerCapture(event.pointerId);
  drags.set(event.pointerId, { x: event.clientX, y: event.clientY });
  canvas.classList.add('dragging');
  return true;
}

export function attachViewport(canvas) {
  canvas.addEventListener(
    'wheel',
    (event) => {
      event.preventDefault();
      const [dx, dy] = wheelPixels(event);
      const rect = canvas.getBoundingClientRect();
      if (event.ctrlKey || event.metaKey) {
        // A trackpad pinch gives small deltas, a wheel notch ~100: both zoom smoothly.
        const factor = Math.exp(-Math.max(-100, Math.min(100, dy)) / 200);
        changeViewport(VIEWPORT.zoom, factor, event.clientX - rect.left, event.clientY - rect.top);
      } else {
        changeViewport(VIEWPORT.pan, event.shiftKey && !dx ? -dy : -dx, event.shiftKey && !dx ? 0 : -dy);
      }
    },
    { passive: false },
  );
  canvas.addEventListener('pointermove', (event) => {
    const last = drags.get(event.pointerId);
    if (!last) return;
    changeViewport(VIEWPORT.pan, event.clientX - last.x, event.clientY - last.y);
    drags.set(event.pointerId, { x: event.clientX, y: event.clientY });
  });
  const end = (event) => {
    if (!drags.delete(event.pointerId)) return;
    if (!drags.size) canvas.classList.remove('dragging');
  };
  for (const type of ['pointerup', 'pointercancel', 'lostpointercapture']) canvas.addEventListener(type, end);
  // The middle button's own scrolling (autoscroll) would fight the drag.
  canvas.addEventListener('mousedown', (event) => event.button === 1 && event.preventDefault());

  const typing = (event) => document.querySelector('dialog[open]') || event.target.closest?.('input, textarea, select');
  document.addEventListener('keydown', (event) => {
    if (typing(event) || event.metaKey || event.ctrlKey || event.altKey) return;
    if (event.key === ' ') {
      // Space on a focused button presses it: only the canvas's Space pans.
      if (event.target.closest?.('button, summary')) return;
      spaceHeld = true;
      canvas.classList.add('can-drag');
    } else if (event.key === '+' || event.key === '=') {
      changeViewport(VIEWPORT.zoomIn);
    } else if (event.key === '-' || event.key === '_') {
      changeViewport(VIEWPORT.zoomOut);
    } else if (event.key === '0') {
      changeViewport(VIEWPORT.actualSize);
    } else if (event.key === '!' && event.shiftKey) {
      changeViewport(VIEWPORT.fit);
    } else {
      return;
    }
    event.preventDefault();
  });
  const release = () => {
    spaceHeld = false;
    canvas.classList.remove('can-drag');
  };
  document.addEventListener('keyup', (event) => event.key === ' ' && release());
  window.addEventListener('blur', release);

  const controls = document.getElementById('zoom');
  const commands = {
    'zoom-in': VIEWPORT.zoomIn,
    'zoom-out': VIEWPORT.zoomOut,
    'zoom-actual': VIEWPORT.actualSize,
    'zoom-fit': VIEWPORT.fit,
  };
  controls?.addEventListener('click', (event) => {
    const button = event.target.closest('button[data-zoom]');
    if (button) changeViewport(commands[button.dataset.zoom]);
  });
  onViewportChange(showZoom);
}

/** The zoom on its button: "100%". */
function showZoom({ zoom }) {
  const label = document.querySelector('#zoom [data-zoom="zoom-actual"]');
  if (!label) return;
  const percent = `${Math.round(zoom * 100)}%`;
  if (label.textContent !== percent) label.textContent = percent;
  label.setAttribute('aria-label', `Zoom ${percent}: set to 100%`);
}

/** Tells the listeners of a new viewport (this page's or two fingers'): called each frame, cheap when nothing changed. */
let lastShown = '';
export function viewportFrame() {
  const now = viewport();
  const key = `${now.x} ${now.y} ${now.zoom}`;
  if (key === lastShown) return;
  lastShown = key;
  for (const listener of listeners) listener(now);
}
