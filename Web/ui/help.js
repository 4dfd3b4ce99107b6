// What the gestures are, for people who cannot hover for a tooltip: the "?"
// sheet lists every gesture and shortcut, and on a first visit a hint at the
// bottom names the three that surprise (tap, long press, double tap). The
// hint goes for good once read: "Got it", opening the sheet, or drawing a
// line stores a flag in localStorage. A page that cannot draw (a view link,
// no link) does not show it.

const SEEN = 'touchtracker.helpSeen';
const sheet = document.getElementById('help');
const hint = document.getElementById('hint');

function seen() {
  try {
    return localStorage.getItem(SEEN) === '1';
  } catch {
    return false; // storage refused (private mode): show the hint, it is harmless
  }
}

function markSeen() {
  hint.hidden = true;
  try {
    localStorage.setItem(SEEN, '1');
  } catch {
    // The hint comes back next visit; nothing else depends on it.
  }
}

export function openHelp() {
  markSeen();
  if (!sheet.open) sheet.showModal();
}

export const helpOpen = () => sheet.open;

/** This person drew: the hint has done its work and no longer covers the drawing. */
export function drawnOnce() {
  if (!hint.hidden) markSeen();
}

/** The page cannot draw: the hint, which says how to, is not shown (and not counted as read). */
export function hideHint() {
  hint.hidden = true;
}

/** The toolbar's icons, named, with what each does: the sheet's legend, for screens without tooltips. */
const LEGEND = [
  ['[data-command="palette"]', 'palette', 'the colors (also a three-finger swipe up)'],
  ['[data-command="undo"]', 'undo', 'takes back your last change'],
  ['[data-command="redo"]', 'redo', 'puts it back'],
  ['[data-toggle="angle"]', 'angle', "on: each line's color follows its direction"],
  ['[data-toggle="speed"]', 'speed', 'on: faster strokes draw thicker lines'],
  ['[data-toggle="pen"]', 'pen', 'there once a pen is used; on: while a pen is in use, fingers do not draw'],
  ['#file-menu summary', 'menu', 'new drawing, exports, the inspector, your drawings'],
  ['[data-command="help"]', 'help', 'this sheet'],
  ['[data-command="share"]', 'share', 'links to draw or watch together'],
  ['#toolbar > [data-command="inspector"]', 'inspector', 'what decided each touch (on a phone: in the ⋯ menu)'],
];

function fillLegend() {
  const legend = sheet.querySelector('.toolbar-legend');
  for (const [selector, key, does] of LEGEND) {
    const control = document.querySelector(`#toolbar ${selector}`);
    if (!control) continue;
    const term = document.createElement('dt');
    const icon = control.querySelector('svg').cloneNode(true);
    icon.dataset.icon = key;
    const name = document.createElement('span');
    name.textContent = control.getAttribute('aria-label');
    term.append(icon, name);
    const description = document.createElement('dd');
    description.textContent = does;
    legend.append(term, description);
  }
}

export function attachHelp() {
  fillLegend();
  hint.hidden = seen();
  hint.addEventListener('click', (event) => {
    const button = event.target.closest('button[data-hint]');
    if (!button) return;
    if (button.dataset.hint === 'help') openHelp();
    else markSeen();
  });
  // A tap on the backdrop (outside the sheet's box) closes it, as Escape does.
  sheet.addEventListener('click', (event) => {
    if (event.target === sheet) sheet.close();
  });
}
