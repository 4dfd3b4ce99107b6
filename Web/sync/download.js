// The drawing's download, and the check of what this page's key opens,
// start as soon as this module runs. index.html also loads it on its own (an
// `async` module with a few small imports), and the server's one script for
// the page's modules (PageBundle.swift) runs it before app.js's others, so
// the 10 MB of a big drawing come in while the rest of the page arrives and
// the core compiles, not after (they took ~0.3 s on loopback before the
// download could start, longer over a phone's network). This browser's copy
// of the drawing is read from then on too, beside the download (opening
// IndexedDB takes ~0.1 s on a first visit: it creates the database). The
// saver takes both when it opens the drawing (`takeStarted`); app.js takes
// the check (`checkAccess`).

import { NAME_PATTERN } from '../core/bridge.js';
import { access } from '../server/access.js';
import { api } from '../server/api.js';
import { localCopies } from './local-copy.js';

const LAST_OPENED = 'touchtracker.lastDrawing';

/**
 * The drawing the address asks for (`?drawing=`; without one, the drawing
 * this browser opened last, else 'default') and the one opened: 'default'
 * for an invalid name.
 */
export function drawingAsked() {
  let last = null;
  try {
    last = localStorage.getItem(LAST_OPENED);
  } catch {
    // storage disabled: 'default'
  }
  const asked = new URLSearchParams(location.search).get('drawing') || (NAME_PATTERN.test(last ?? '') ? last : 'default');
  return { asked, name: NAME_PATTERN.test(asked) ? asked : 'default' };
}

/** Drawing `name` is the one to open next time the address names none. */
export function rememberOpened(name) {
  try {
    localStorage.setItem(LAST_OPENED, name);
  } catch {
    // storage disabled: the next visit opens 'default'
  }
}

/** The server's copy of drawing `name`: a promise of its response, or of null when the server could not be reached. */
export function fetchDrawing(name) {
  return api.drawing(name).catch(() => null);
}

/**
 * The summary of this browser's copy of drawing `name` (`localCopies.summary`),
 * once the copies are prepared (`localCopies.prepare`): a promise of it
 * (null when there is none), rejected when the copies cannot be read.
 */
export function localCopySummary(name) {
  return localCopies.prepare().then(() => localCopies.summary(name));
}

/** What was started below: {name, response, local}, until taken. */
let started = null;

/** The check of what this page's key opens, started below: {name, checked}, until taken. */
let startedCheck = null;

/**
 * What this page's key opens for drawing `name` (`access.check`): the check
 * this module started, if it was for `name` and not taken yet, else a new one.
 */
export function checkAccess(name) {
  const taken = startedCheck?.name === name ? startedCheck.checked : null;
  startedCheck = null;
  return taken ?? access.check(name);
}

/**
 * What this module started, if it was for drawing `name` and not taken yet,
 * or null: `response`, a promise as `fetchDrawing`'s, and `local`, one as
 * `localCopySummary`'s.
 */
export function takeStarted(name) {
  const taken = started?.name === name ? started : null;
  started = null;
  return taken;
}

{
  const { name } = drawingAsked();
  // A share link's key (or the admin's token) leaves the address bar before anything else happens.
  access.takeFromAddress(name);
  const response = fetchDrawing(name);
  const local = localCopySummary(name);
  local.catch(() => {}); // its failure is the saver's to show, once taken: not an unhandled rejection
  started = { name, response, local };
  // Beside the download, not after the core has started: the page is ready for a finger once both are in.
  const checked = access.check(name);
  checked.catch(() => {}); // app.js awaits it once taken: a failure before then is not an unhandled rejection
  startedCheck = { name, checked };
}
