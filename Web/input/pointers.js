// Pointer Events become touches: every pointer down on the canvas is one
// touch, reported to the core as it happens and committed once per animation
// frame (app.js calls tt_commit with `lastInputTime()`).

import { PHASE, STATUS, TOUCH_TYPE, coreTime, tt } from '../core/bridge.js';
import { startDrag } from './viewport.js';

/** Pointers down on the canvas: pointerId -> predicted position (or null). */
export const pointers = new Map();
/** Each pointer's type (touch, pen, mouse) by id, for the inspector's names. */
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

/** Pen, finger, mouse: `Touch.type` (UIKit calls a mouse or trackpad an indirect pointer). */
const TYPES = { pen: TOUCH_TYPE.pencil, touch: TOUCH_TYPE.direct, mouse: TOUCH_TYPE.indirectPointer };

/**
 * A pointer event's force as the core takes it (UIKit's: 1.0 an average
 * touch). Pointer Events' `pressure` runs 0–1 and is 0.5 for a press the
 * hardware cannot measure, so force is twice the pressure, up to 2: an
 * unmeasured press reads as an average one. A mouse has no force (0, 0).
 */
const force = (event) => (event.pointerType === 'mouse' ? 0 : 2 * (event.pressure || 0));
const maximumForce = (event) => (event.pointerType === 'mouse' ? 0 : 2);

/**
 * A pen's altitude and azimuth in radians: the event's own where the
 * browser has them, else from `tiltX`/`tiltY` (degrees), as the Pointer
 * Events spec converts them. A finger reads as perpendicular (π/2, 0).
 */
function angles(event) {
  if (typeof event.altitudeAngle === 'number') return [event.altitudeAngle, event.azimuthAngle || 0];
  const tx = Math.tan(((event.tiltX || 0) * Math.PI) / 180);
  const ty = Math.tan(((event.tiltY || 0) * Math.PI) / 180);
  if (!tx && !ty) return [Math.PI / 2, 0];
  return [Math.atan(1 / Math.hypot(tx, ty)), (Math.atan2(ty, tx) + 2 * Math.PI) % (2 * Math.PI)];
}

function report(canvas, event, phase, id, at = null) {
  const rect = canvas.getBoundingClientRect();
  const time = coreTime(event.timeStamp);
  latest = Math.max(latest, time);
  const x = at ? at.x : event.clientX - rect.left;
  const y = at ? at.y : event.clientY - rect.top;
  // The touch that stays under an Alt-drag is the same pen or mouse held
  // still (a pen's anchor as a finger would be a palm to palm rejection),
  // with no force or angles.
  const [altitude, azimuth] = at ? [NaN, NaN] : angles(event);
  const type = TYPES[event.pointerType] ?? TOUCH_TYPE.direct;
  const status = at
    ? tt.tt_touch(id, phase, x, y, time, type, 0, 0, NaN, NaN)
    : tt.tt_touch(id, phase, x, y, time, type, force(event), maximumForce(event), altitude, azimuth);
  pointerPhases.set(id, phase);
  // The core counts what it ignored (state().ignoredInput, lastError). A
  // finger it does not know as down is one this page must stop reporting.
  if (status === STATUS.notDown) pointers.delete(id);
}

/** One coalesced (`predicted` false) or predicted position of pointer `id`, for its next report. */
function sample(rect, event, id, predicted) {
  const [altitude, azimuth] = angles(event);
  const x = event.clientX - rect.left;
  const y = event.clientY - rect.top;
  tt.tt_touch_sample(id, predicted ? 1 : 0, x, y, coreTime(event.timeStamp), force(event), altitude, azimuth);
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
    if (!tt) return;
    // Space+drag and the middle button move the drawing (input/viewport.js).
    if (startDrag(canvas, event)) return onDown();
    if (event.pointerType === 'mouse' && event.button !== 0) return;
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
    // One move, carrying the positions the browser coalesced into it (the
    // last is the event's own) and those it predicts: Event.coalescedTouches(for:).
    const rect = canvas.getBoundingClientRect();
    const coalesced = event.getCoalescedEvents ? event.getCoalescedEvents() : [];
    for (let i = 0; i < coalesced.length - 1; i++) sample(rect, coalesced[i], event.pointerId, false);
    const predicted = event.getPredictedEvents ? event.getPredictedEvents() : [];
    for (const e of predicted) sample(rect, e, event.pointerId, true);
    report(canvas, event, PHASE.moved, event.pointerId);
    // The predicted end also draws the line's end ahead of the finger (paint/canvas.js).
    const last = predicted[predicted.length - 1];
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
