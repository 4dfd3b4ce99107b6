// Every request of the server's HTTP API (docs/DESIGN.md, "HTTP API"), one
// function each, with this page's key (server/access.js). Each answers a
// promise of the `Response`, or rejects when the server could not be reached;
// what an answer means is the caller's.

import { access } from './access.js';

/** An empty drawing's document. */
export const EMPTY_DOCUMENT = '{"format":"touchtracker","version":1,"lines":[],"circles":[]}';

/** Where drawing `name` is on the server. */
export const drawingURL = (name) => '/api/drawings/' + encodeURIComponent(name);

/** The revision a response names (`ETag` or `X-Revision`), 0 when none. */
export function revisionOf(response) {
  const match = /(\d+)/.exec(response.headers.get('ETag') || response.headers.get('X-Revision') || '');
  return match ? Number(match[1]) : 0;
}

const json = { 'Content-Type': 'application/json' };

export const api = {
  /**
   * A page of the drawings list (the admin's), newest first: `url` is
   * `/api/drawings?limit=N&search=TEXT` or the `Link` of the page before.
   */
  list: (url = '/api/drawings', signal = undefined) =>
    fetch(url, { cache: 'no-store', headers: access.headers(null), signal }),

  /** `GET /api/drawings/NAME`: the drawing's document, its revision in `ETag`. */
  drawing: (name) => fetch(drawingURL(name), { cache: 'no-store', headers: access.headers(name) }),

  /** `PUT /api/drawings/NAME` with `text`, only if no drawing has the name (`If-Match: "0"`). */
  create: (name, text) =>
    fetch(drawingURL(name), { method: 'PUT', headers: access.headers(null, { ...json, 'If-Match': '"0"' }), body: text }),

  /** `DELETE /api/drawings/NAME`. */
  remove: (name) => fetch(drawingURL(name), { method: 'DELETE', headers: access.headers(null) }),

  /** `POST /api/drawings/NAME/rename` to `to`. */
  rename: (name, to) =>
    fetch(drawingURL(name) + '/rename', { method: 'POST', headers: access.headers(null, json), body: JSON.stringify({ name: to }) }),

  /** The address of the drawing's picture at `revision` (kept by the browser until the drawing changes). */
  thumbnailURL: (name, revision) => `${drawingURL(name)}/thumbnail?revision=${revision}`,

  /** `GET` of the picture, with the admin's key (an <img> cannot send it). */
  thumbnail: (name, revision) => fetch(api.thumbnailURL(name, revision), { headers: access.headers(null) }),

  /**
   * `POST /api/drawings/NAME/changes`: a batch (`text`) under idempotency
   * `key`; `seen`: the page saw the drawing, so that a name a rename left
   * answers where it went (`If-Match: *`). `keepalive`: it outlives the page.
   */
  append: (name, key, text, { seen = false, keepalive = false } = {}) => {
    const headers = { ...json, 'Idempotency-Key': key };
    if (seen) headers['If-Match'] = '*';
    return fetch(drawingURL(name) + '/changes', { method: 'POST', headers: access.headers(name, headers), body: text, keepalive });
  },

  /** `GET /api/drawings/NAME/changes?since=R`: the log after revision R (410 when folded away). */
  changes: (name, since) =>
    fetch(`${drawingURL(name)}/changes?since=${since}`, { cache: 'no-store', headers: access.headers(name) }),

  /** `GET /api/drawings/NAME/links`: what this page's key opens, and the links. */
  links: (name) => fetch(drawingURL(name) + '/links', { cache: 'no-store', headers: access.headers(name) }),

  /** `POST /api/drawings/NAME/links`: new links; the old ones open nothing. */
  newLinks: (name) => fetch(drawingURL(name) + '/links', { method: 'POST', headers: access.headers(name) }),
};
