// Share links and the admin token (docs/DESIGN.md, "Share links and
// access"). A link `/?drawing=NAME&key=KEY` or the admin's `/?token=TOKEN`
// gives this page a key; it is kept in localStorage (so the phone that
// scanned a link opens the drawing again tomorrow), taken out of the
// address bar at once (not left in history, bookmarks or a screenshot),
// and sent as `Authorization: Bearer KEY` on every request of the drawing,
// and in the socket's `hello` (a browser cannot set a WebSocket's headers).
//
// The server says what the key opens (GET .../links): 'open' (access
// control is off), 'admin', 'edit', 'view' (the page is read-only), or
// nothing (404: 'none').

import { api } from './api.js';

const TOKEN = 'touchtracker.token';
const KEYS = 'touchtracker.keys';

function readKeys() {
  try {
    return JSON.parse(localStorage.getItem(KEYS) || '{}') || {};
  } catch {
    return {};
  }
}

function store(key, value) {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch {
    // Private mode: the key lasts as long as this page, which is enough to draw.
  }
}

let memoryToken = null;
let memoryKeys = {};

export const access = {
  /** What this page's key opens on the open drawing: 'open', 'admin', 'edit', 'view', 'none', or 'unknown' (offline). */
  role: 'unknown',
  /** The drawing's links as the server gave them: {edit, view} (no edit for a view link). */
  links: null,

  /** Takes `?key=` (for `name`) and `?token=` out of the address and keeps them. */
  takeFromAddress(name) {
    const url = new URL(location.href);
    const key = url.searchParams.get('key');
    const token = url.searchParams.get('token');
    if (key === null && token === null) return;
    if (token) {
      memoryToken = token;
      store(TOKEN, token);
    }
    if (key) {
      memoryKeys[name] = key;
      store(KEYS, JSON.stringify({ ...readKeys(), [name]: key }));
    }
    url.searchParams.delete('key');
    url.searchParams.delete('token');
    history.replaceState(history.state, '', url);
  },

  token() {
    if (memoryToken) return memoryToken;
    try {
      return localStorage.getItem(TOKEN);
    } catch {
      return null;
    }
  },

  /** The key to send for drawing `name`: its link's, else the admin token, else none. */
  key(name) {
    return memoryKeys[name] || readKeys()[name] || this.token();
  },

  /** Whether this page holds a share link's key for drawing `name` (not only the admin token). */
  hasLinkKey(name) {
    return Boolean(memoryKeys[name] || readKeys()[name]);
  },

  /** `headers` with `Authorization` added when there is a key for `name` (null: the admin token). */
  headers(name, headers = {}) {
    const key = name === null ? this.token() : this.key(name);
    return key ? { ...headers, Authorization: `Bearer ${key}` } : headers;
  },

  /** The drawing `from` is called `to` now: its share link's key, if this page has one, goes with it. */
  moveKey(from, to) {
    const kept = readKeys();
    const key = memoryKeys[from] || kept[from];
    if (!key) return;
    memoryKeys[to] = key;
    delete memoryKeys[from];
    delete kept[from];
    store(KEYS, JSON.stringify({ ...kept, [to]: key }));
  },

  get readOnly() {
    return this.role === 'view' || this.role === 'none';
  },
  /** Whether the drawings list, new drawings and deleting are this page's to use. */
  get canManage() {
    return this.role === 'open' || this.role === 'admin' || this.role === 'unknown';
  },

  /** Asks the server what this page's key opens on `name` (and its links). */
  async check(name) {
    let response;
    try {
      response = await api.links(name);
    } catch {
      this.role = 'unknown'; // offline: saving finds out
      return this.role;
    }
    const fromServer = (response.headers.get('Content-Type') || '').startsWith('application/json');
    if ((response.status === 404 || response.status === 403) && fromServer) {
      this.role = 'none';
      this.links = null;
    } else if (response.ok) {
      const answer = await response.json();
      this.role = answer.access;
      this.links = { edit: answer.edit, view: answer.view };
    } else {
      this.role = 'unknown'; // a server without links (static files, an older version): as before
    }
    return this.role;
  },

  /** New links for `name` (the admin's, or anyone's with access control off); the old ones open nothing. */
  async rotate(name) {
    const response = await api.newLinks(name);
    if (!response.ok) throw new Error((await response.json().catch(() => ({}))).error || response.statusText);
    const answer = await response.json();
    this.links = { edit: answer.edit, view: answer.view };
    return this.links;
  },

  /** The address of a link with `key` to drawing `name`. */
  linkURL(name, key) {
    const url = new URL(this.drawingAddress(name));
    url.searchParams.set('key', key);
    return url.href;
  },

  /** The address of drawing `name`, without a key. */
  drawingAddress(name) {
    const url = new URL('/', location.href);
    url.searchParams.set('drawing', name);
    return url.href;
  },
};
