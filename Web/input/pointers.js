// Pointer Events become touches: every pointer down on the canvas is one
// touch, reported to the core as it happens and committed once per animation
// frame (app.js calls tt_commit with `lastInputTime()`).

import { PHASE, STATUS, coreTime, tt } from '../core/bridge.js';

/** Pointers down on the canvas: pointerId -> predicted position (or null). */
export const pointers = new Map();
let latest = 0;
let readOnly = false;

/** A view-only page: touches on the canvas reach the core no more (no drawing, selecting, clearing or palette). */
export function setReadOnlyInput(value) {
  readOnly = value;
  if (value) cancelAllTouches();
}

/** The timestamp (s) of the newest input reported, for committing a frame. */
export const lastInputTime = () => latest;

function report(canvas, event, phase, id) {
  const rect = canvas.getBoundingClientRect();
  const time = coreTime(event.timeStamp);
  latest = Math.max(latest, time);
  const status = tt.tt_touch(id, phase, event.clientX - rect.left, event.clientY - rect.top, time);
  // The core counts what it ignored (state().ignoredInput, lastError). A
  // finger it does not know as down is one this page must stop reporting.
  if (status === STATUS.notDown) pointers.delete(id);
}

/** Cancels every touch down, for when the page loses the pointers (blur, hide). */
export function cancelAllTouches() {
  pointers.clear();
  if (tt) tt.tt_cancel_all(Math.max(coreTime(performance.now()), latest));
}

/** Listens on `canvas`; `onDown` runs on every accepted pointerdown (closing menus, say). */
export function attachInput(canvas, onDown) {
  const finish = (event, phase) => {
    if (!pointers.has(event.pointerId)) return;
    pointers.delete(event.pointerId);
    report(canvas, event, phase, event.pointerId);
  };

  canvas.addEventListener('pointerdown', (event) => {
    if (!tt || (event.pointerType === 'mouse' && event.button !== 0)) return;
    event.preventDefault();
    if (readOnly) return onDown();
    onDown();
    canvas.setPointerCapture(event.pointerId);
    pointers.set(event.pointerId, null);
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
