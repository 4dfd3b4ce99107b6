// The drawing from the keyboard and for screen readers. The canvas is in the
// tab order; while it has the keyboard, keys move a focus through the lines
// and circles, select, nudge and recolor them, and draw a line by its two
// ends. What each key does is the core's (KeyCommand.swift, `tt_key`); this
// file only maps keys to its commands and keeps the canvas's description
// (`tt_description`) up to date for screen readers.

import { drawingDescription, KEY, tt } from '../core/bridge.js';
import { access } from '../server/access.js';

/** The commands a view-only page still has: looking around, nothing that changes the drawing. */
const LOOKING = new Set([KEY.next, KEY.previous, KEY.first, KEY.last, KEY.left, KEY.right, KEY.up, KEY.down, KEY.blur]);

/** Arrow keys and their commands, without and with Shift. */
const ARROWS = {
  ArrowLeft: [KEY.left, KEY.fineLeft],
  ArrowRight: [KEY.right, KEY.fineRight],
  ArrowUp: [KEY.up, KEY.fineUp],
  ArrowDown: [KEY.down, KEY.fineDown],
};

/** The command for a key on the canvas, or undefined. */
function command(event) {
  if (ARROWS[event.key]) return ARROWS[event.key][event.shiftKey ? 1 : 0];
  switch (event.key.length === 1 ? event.key.toLowerCase() : event.key) {
    case 'n':
      return event.shiftKey ? KEY.previous : KEY.next;
    case 'Home':
      return KEY.first;
    case 'End':
      return KEY.last;
    case 'Enter':
      return KEY.activate;
    case 'l':
      return KEY.drawLine;
    case 'Escape':
      return KEY.cancel;
  }
  return undefined;
}

/**
 * Runs `code` in the core when this page may; true when it did something
 * (the key is then the canvas's: no scrolling, no other handler).
 */
function press(code) {
  if (!tt.tt_key || (access.readOnly && !LOOKING.has(code))) return false;
  return tt.tt_key(code) === 1;
}

/** Others' changes are told at most this often (a screen reader reading each would never stop). */
const QUIET_MS = 1000;

let canvas = null;
let region = null;
let toldAt = -Infinity;
/** A key went to the canvas (ours, or the page's: 1–7, Delete, Ctrl-Z): its effect is told on the next frame. */
let keyOwed = false;

/** Writes the core's description into the live region when it differs: read out politely. */
function tell(now) {
  toldAt = now;
  const text = drawingDescription();
  if (text && region.textContent !== text) region.textContent = text;
}

export function attachDrawingKeys(element) {
  canvas = element;
  region = document.getElementById('drawing-description');
  if (!tt.tt_key || !region) return;
  canvas.addEventListener('keydown', (event) => {
    keyOwed = true;
    if (event.metaKey || event.ctrlKey || event.altKey || event.isComposing) return;
    if (event.key.toLowerCase() === 'c' && !event.shiftKey && !access.readOnly) {
      // The colors: with a shape selected, choosing one (1–7, or a click) recolors it.
      tt.tt_palette_visible() ? tt.tt_hide_palette() : tt.tt_show_palette();
    } else {
      const code = command(event);
      if (code === undefined || !press(code)) return;
    }
    event.preventDefault();
    event.stopPropagation();
    tell(performance.now());
  });
  canvas.addEventListener('focus', () => tell(performance.now()));
  // The ring shows only while the keys are the canvas's: a pointer or Tab elsewhere hides it.
  canvas.addEventListener('blur', () => press(KEY.blur));
  canvas.addEventListener('pointerdown', () => press(KEY.blur));
}

/**
 * Each frame, while the canvas has the keyboard: what a key did is told at
 * once, what else changed (others' lines too) within `QUIET_MS`.
 */
export function drawingKeysFrame(now) {
  if (!region || document.activeElement !== canvas) return;
  if (keyOwed || now - toldAt >= QUIET_MS) tell(now);
  keyOwed = false;
}
