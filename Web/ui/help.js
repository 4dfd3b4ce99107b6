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

export function attachHelp() {
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
