// The page starts without the server: this service worker keeps the page's
// own files (the HTML, the modules, the styles and touchtracker.wasm) in a
// cache and answers from it when the network cannot. Drawings are not cached
// here: /api/ requests always go to the network, and a drawing opened before
// comes from this browser's IndexedDB copy (sync/local-copy.js), which
// saves its changes to the server once it is back.
//
// Network first, cache second: online, every file is as fresh as without a
// service worker (a new server version is seen at the next load, never one
// load late); offline, or with the server down, the last copy answers.

const CACHE = 'touchtracker-page-v1';

/**
 * Every file the page needs to start, relative to this script. A test
 * (Tests/e2e/test_offline_start.py) checks this list against Web/.
 */
const PAGE_FILES = [
  './',
  'app.js',
  'core/bridge.js',
  'icon.svg',
  'index.html',
  'input/pointers.js',
  'input/viewport.js',
  'paint/export.js',
  'manifest.webmanifest',
  'paint/canvas.js',
  'paint/commands.js',
  'paint/layer-cache.js',
  'paint/presence.js',
  'paint/repaint.js',
  'paint/static-layer.js',
  'paint/tile-painters.js',
  'paint/tile-worker.js',
  'server/access.js',
  'server/api.js',
  'style.css',
  'sync/download.js',
  'sync/keeping.js',
  'sync/live.js',
  'sync/opening.js',
  'sync/local-copy.js',
  'sync/news.js',
  'sync/saver.js',
  'touchtracker.wasm',
  'ui/banner.js',
  'ui/clear-notice.js',
  'ui/dialog.js',
  'ui/drawing-actions.js',
  'ui/drawing-keys.js',
  'ui/drawing-list.js',
  'ui/drawings.js',
  'ui/help.js',
  'ui/inspector.js',
  'ui/inspector-log.js',
  'ui/notice.js',
  'ui/palette-choices.js',
  'ui/qr.js',
  'ui/recorder.js',
  'ui/safe-area.js',
  'ui/share.js',
  'ui/touch-feedback.js',
  'ui/sync-status.js',
  'ui/toolbar.js',
];

/** Kept under their plain names: the page's address and what the browser reads from the manifest. */
const PLAIN = new Set(['./', 'index.html', 'manifest.webmanifest', 'icon.svg']);

self.addEventListener('install', (event) => {
  event.waitUntil(install().then(() => self.skipWaiting()));
});

/**
 * The server names the page's files in the page's version folder,
 * `assets/VERSION/app.js` (one name for one content, kept a year by the
 * HTTP cache): the files are kept under the names index.html uses, read
 * from index.html itself, and asked for with the HTTP cache's copies
 * allowed, so what the page just fetched is not fetched again. From a
 * server that does not rename (a plain static server), the plain names.
 */
async function install() {
  const cache = await caches.open(CACHE);
  // `cache: 'no-cache'` asks the server whether the HTTP cache's copy is
  // current (every plain file has an ETag): what the page itself just
  // fetched comes back as a 304, not again.
  const page = await fetch(new Request('./', { cache: 'no-cache' }));
  if (!page.ok) throw new Error(`The page answered ${page.status}`);
  const html = await page.clone().text();
  const previous = await keptFolder(cache);
  await cache.put('./', page);
  const folder = FOLDER.exec(html)?.[0];
  const requests = new Map();
  const ask = (file, init) => {
    const url = new URL(file, self.location).href;
    if (!requests.has(url)) requests.set(url, new Request(url, init));
  };
  for (const file of PAGE_FILES) {
    if (file === './') continue;
    if (!folder || PLAIN.has(file)) ask(file, { cache: 'no-cache' });
    // The icon twice: index.html names it in the folder, the manifest plainly.
    if (folder && (!PLAIN.has(file) || file === 'icon.svg')) ask(folder + file);
  }
  // What the page names in its folder and no file of Web/ is: the server's one script for its modules.
  for (const [named] of html.matchAll(NAMED)) ask(named);
  await cache.addAll([...requests.values()]);
  await forgetFolders(cache, [folder, previous]);
}

/** The version folder of the page kept in `cache`, if any. */
async function keptFolder(cache) {
  const kept = await cache.match('./');
  return kept ? FOLDER.exec(await kept.text())?.[0] : undefined;
}

/** A version folder, as the server names the page's files (`assets/VERSION/`). */
const FOLDER = /assets\/[0-9a-f]{16}\//;
/** Every file index.html names in a version folder. */
const NAMED = /assets\/[0-9a-f]{16}\/[^"?#]+/g;

/**
 * Drops what is kept of every version folder but `kept`: the current one
 * and the one before it, for a tab still open on it across a deploy (its
 * files are gone from the server, which answers 404 for another version).
 */
async function forgetFolders(cache, kept) {
  const keep = new Set(kept.filter(Boolean));
  for (const request of await cache.keys()) {
    const folder = FOLDER.exec(new URL(request.url).pathname)?.[0];
    if (folder && !keep.has(folder)) await cache.delete(request);
  }
}

self.addEventListener('activate', (event) => {
  const old = caches.keys().then((keys) => Promise.all(keys.filter((k) => k !== CACHE).map((k) => caches.delete(k))));
  event.waitUntil(old.then(() => self.clients.claim()));
});

/** The page's own files: same origin, GET, not the API or the live socket. */
function isPageFile(request) {
  if (request.method !== 'GET') return false;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return false;
  return !url.pathname.startsWith('/api/');
}

async function networkFirst(request) {
  const cache = await caches.open(CACHE);
  // The drawing in `?drawing=NAME` is chosen by the page's script: every
  // navigation is the same page, kept once under './'.
  const key = request.mode === 'navigate' ? new URL('./', self.location).href : request;
  try {
    const response = await fetch(request);
    if (response.ok && request.mode === 'navigate') {
      // A new version of the page: its files come under a new folder, so the one before the last goes.
      const previous = await keptFolder(cache);
      await cache.put(key, response.clone());
      const folder = FOLDER.exec(await response.clone().text())?.[0];
      if (folder !== previous) await forgetFolders(cache, [folder, previous]);
    } else if (response.ok) {
      await cache.put(key, response.clone());
    } else if (FOLDER.test(new URL(request.url).pathname)) {
      // Another version's file, which the server no longer has: a tab open across a deploy asks for
      // the one it started with (its tile worker, loaded late), kept here.
      const kept = await cache.match(key);
      if (kept) return kept;
    }
    return response;
  } catch (error) {
    const cached = await cache.match(key, { ignoreSearch: request.mode === 'navigate' });
    if (cached) return cached;
    throw error;
  }
}

self.addEventListener('fetch', (event) => {
  if (isPageFile(event.request)) event.respondWith(networkFirst(event.request));
});
