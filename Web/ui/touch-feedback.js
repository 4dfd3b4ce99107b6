// What a touchscreen cannot show by hovering, said in the brief notice
// (ui/notice.js, a polite live region): a toolbar toggle says its name and
// its new state; a finger that draws nothing says why — the page is view
// only, or a pen is in use with "Pen only draws" on (palm rejection,
// App/DrawView+Pen.swift), once a page, with a button to let fingers draw.
// The pen toggle appears once this browser has had a pen on the canvas
// (a localStorage flag): before, it changes nothing.

import { tt } from '../core/bridge.js';
import { access } from '../server/access.js';
import { showNotice } from './notice.js';

const PEN_SEEN = 'touchtracker.penSeen';
const PEN_IN_USE_MS = 5000; // DrawView.penInUseInterval: fingers are palms this long after a pen lifts

/** What each toggle does, said when it is turned on. */
const TOGGLES = {
  angle: "each line's color follows its direction",
  speed: 'faster strokes draw thicker lines',
  pen: 'while a pen is in use, fingers and a resting hand do not draw',
};

const pensDown = new Set();
let lastPenUp = -Infinity;
let toldPalm = false;

/** Says a toggle's name and whether it is now on (after the toolbar showed its new state). */
export function announceToggle(button) {
  const on = button.getAttribute('aria-pressed') === 'true';
  const does = on && TOGGLES[button.dataset.toggle];
  showNotice(`${button.getAttribute('aria-label')}: ${on ? 'on' : 'off'}${does ? ` — ${does}` : ''}`);
}

function showPenToggle() {
  document.querySelector('#toolbar [data-toggle="pen"]').hidden = false;
  try {
    localStorage.setItem(PEN_SEEN, '1');
  } catch {
    // Shown for this visit only.
  }
}

/** Watches the canvas's pointers; `refresh` redraws the toolbar after the notice's button changed an option. */
export function attachTouchFeedback(refresh) {
  const canvas = document.getElementById('canvas');
  try {
    if (localStorage.getItem(PEN_SEEN) === '1') showPenToggle();
  } catch {
    // No storage: the toggle appears with the first pen.
  }
  canvas.addEventListener('pointerdown', (event) => {
    if (event.pointerType === 'pen') {
      pensDown.add(event.pointerId);
      showPenToggle();
    } else if (event.pointerType !== 'touch') {
      return;
    } else if (access.role === 'view') {
      showNotice('View only: this link shows the drawing as it changes, but cannot draw');
    } else if (!toldPalm && tt?.tt_pen_only?.() && (pensDown.size || event.timeStamp - lastPenUp <= PEN_IN_USE_MS)) {
      toldPalm = true;
      showNotice('Fingers do not draw while the pen is in use (they still tap and move lines)', [
        ['Let fingers draw', () => {
          tt.tt_set_pen_only(0);
          refresh();
        }],
      ]);
    }
  });
  const penUp = (event) => {
    if (pensDown.delete(event.pointerId)) lastPenUp = event.timeStamp;
  };
  canvas.addEventListener('pointerup', penUp);
  canvas.addEventListener('pointercancel', penUp);
}
