// Pointer Events become touches: every pointer down on the canvas is one
// touch, reported to the core as it happens and committed once per animation
// frame (app.js calls tt_commit with `lastInputTime()`).

import { PHASE, STATUS, coreTime, tt } from '../core/bridge.js';

/** Pointers down on the canvas: pointerId -> predicted position (or null). */
export const pointers = new Map();
/** Each pointer's type (touch, pen, mouse) by id, for the inspector; the core has no types. */
export const pointerTypes = new Map();
/** Each pointer's last phase as this page reported it, for the inspector (a touch a recognizer took never reaches the view). */
export const pointerPhases = new Map();
let latest = 0;
let readOnly = false;

/** A view-only page: touches on the canvas reach the core no more (no drawing, selecting, clearing or palette). */
export function setReadOnlyInput(value) {
  readOnly = value;
  if (value) cancelAllTouches();
}

/** Phase names by code (PHASE's inverse). */
export const PHASE_NAMES = Object.fromEntries(Object.entries(PHASE).map(([name, code]) => [code, name]));

/** The timestamp (s) of the newest input reported, for committing a frame. */
export const lastInputTime = () => latest;

function report(canvas, event, phase, id, at = null) {
  const rect = canvas.getBoundingClientRect();
  const time = coreTime(event.timeStamp);
  latest = Math.max(latest, time);
  const x = at ? at.x : event.clientX - rect.left;
  const y = at ? at.y : event.clientY - rect.top;
  const status = tt.tt_touch(id, phase, x, y, time);
  pointerPhases.set(id, phase);
  // The core counts what it ignored (state().ignoredInput, lastError). A
  // finger it does not know as down is one this page must stop reporting.
  if (status === STATUS.notDown) pointers.delete(id);
}

/**
 * Alt/Option-drag with a mouse or pen is two fingers, as in the iOS
 * simulator: a second touch stays where the button went down while the
 * pointer moves, so the two land in one frame and draw a circle in the box
 * between them. pointerId -> { id, x, y } of the touch that stays.
 */
const anchors = new Map();
const anchorID = (pointerId) => -1000 - pointerId;

/** Cancels every touch down, for when the page loses the pointers (blur, hide). */
export function cancelAllTouches() {
  pointers.clear();
  anchors.clear();
  if (tt) tt.tt_cancel_all(Math.max(coreTime(performance.now()), latest));
}

/** Listens on `canvas`; `onDown` runs on every accepted pointerdown (closing menus, say). */
export function attachInput(canvas, onDown) {
  const finish = (event, phase) => {
    if (!pointers.has(event.pointerId)) return;
    pointers.delete(event.pointerId);
    report(canvas, event, phase, event.pointerId);
    const anchor = anchors.get(event.pointerId);
    if (anchor) {
      anchors.delete(event.pointerId);
      report(canvas, event, phase, anchor.id, anchor);
    }
  };

  canvas.addEventListener('pointerdown', (event) => {
    if (!tt || (event.pointerType === 'mouse' && event.button !== 0)) return;
    event.preventDefault();
    if (readOnly) return onDown();
    onDown();
    canvas.setPointerCapture(event.pointerId);
    pointers.set(event.pointerId, null);
    pointerTypes.set(event.pointerId, event.pointerType);
    if (event.altKey && event.pointerType !== 'touch') {
      const rect = canvas.getBoundingClientRect();
      const anchor = { id: anchorID(event.pointerId), x: event.clientX - rect.left, y: event.clientY - rect.top };
      anchors.set(event.pointerId, anchor);
      // The touch that stays is the same mouse or pen to the inspector.
      pointerTypes.set(anchor.id, event.pointerType);
      report(canvas, event, PHASE.began, anchor.id, anchor);
    }
    while (pointerTypes.size > 64) pointerTypes.delete(pointerTypes.keys().next().value);
    while (pointerPhases.size > 64) pointerPhases.delete(pointerPhases.keys().next().value);
    report(canvas, event, PHASE.began, event.pointerId);
  });

  canvas.addEventListener('pointermove', (event) => {
    if (!pointers.has(event.pointerId)) return;
    const coalesced = event.getCoalescedEvents ? event.getCoalescedEvents() : [];
    for (const e of coalesced.length ? coalesced : [event]) report(canvas, e, PHASE.moved, event.pointerId);
    // Predicted positions only draw the line's end ahead of the finger; the core never sees them.
    const predicted = event.getPredictedEvents ? event.getPredictedEvents() : [];
    const last = predicted[predicted.length - 1];
    const rect = canvas.getBoundingClientRect();
    pointers.set(event.pointerId, last ? { x: last.clientX - rect.left, y: last.clientY - rect.top } : null);
  });

  canvas.addEventListener('pointerup', (event) => finish(event, PHASE.ended));
  canvas.addEventListener('pointercancel', (event) => finish(event, PHASE.cancelled));
  canvas.addEventListener('lostpointercapture', (event) => finish(event, PHASE.cancelled));
  canvas.addEventListener('contextmenu', (event) => event.preventDefault());
  // `touch-action: none` stops the browser from scrolling, not from reading
  // gestures into the touches: a quick stroke still ends in a fling (a trace
  // shows GestureFlingStart), and the next touch, which stops that fling, has
  // its tap swallowed: a tap on Undo right after a stroke gave pointerdown and
  // pointerup but no click. Cancelling the canvas's touchstart (a listener
  // that is not passive) makes the browser drop the gestures of every touch
  // that lands on the canvas; Pointer Events still arrive.
  canvas.addEventListener('touchstart', (event) => event.cancelable && event.preventDefault(), { passive: false });
  window.addEventListener('blur', cancelAllTouches);
}
