// The drawing's download starts as soon as this module runs. index.html
// also loads it on its own (an `async` module with two small imports), so
// the 10 MB of a big drawing come in while the rest of the page's modules
// arrive and the core compiles, not after (they took ~0.3 s on loopback
// before the download could start, longer over a phone's network). The
// saver takes the answer when it opens the drawing (`takeDownload`).

import { NAME_PATTERN } from '../core/bridge.js';
import { access } from './access.js';

/** The drawing the address asks for (`?drawing=`, 'default' if none) and the one opened: 'default' for an invalid name. */
export function drawingAsked() {
  const asked = new URLSearchParams(location.search).get('drawing') || 'default';
  return { asked, name: NAME_PATTERN.test(asked) ? asked : 'default' };
}

/** Where drawing `name` is on the server. */
export const drawingURL = (name) => '/api/drawings/' + encodeURIComponent(name);

/** The server's copy of drawing `name`: a promise of its response, or of null when the server could not be reached. */
export function fetchDrawing(name) {
  return fetch(drawingURL(name), { cache: 'no-store', headers: access.headers(name) }).catch(() => null);
}

/** The download started below: {name, response}, until taken. */
let started = null;

/** The download this module started, if it was of drawing `name` and not taken yet (a promise, as `fetchDrawing`'s), or null. */
export function takeDownload(name) {
  const response = started?.name === name ? started.response : null;
  started = null;
  return response;
}

{
  const { name } = drawingAsked();
  // A share link's key (or the admin's token) leaves the address bar before anything else happens.
  access.takeFromAddress(name);
  started = { name, response: fetchDrawing(name) };
}
