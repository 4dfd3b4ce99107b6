// This browser's copies of drawings, in IndexedDB (no 5 MB quota as with
// localStorage). What a copy holds is the core's (docs/DESIGN.md, "Sync"):
//   - `drawings`: the base, `{name, document, revision, savedAt}`: the
//     server's drawing at `revision` (a download's bytes, or the core's
//     export), written whole only when the core asks (`rebase`);
//   - `changes`: the journal after the base, `{name, entry}` one entry each
//     in order (`autoIncrement` keys, index `name`): this person's changes,
//     their batches, others' changes, acknowledgements;
//   - `meta`: `{name, revision, pending}` after the newest entry;
//   - in localStorage, the newest entries of a page that went away, until
//     IndexedDB has them (`keepTail`).
// This file only stores and reads; the core replays a journal
// (the sync event `restore`). A copy with `pending` changes holds work the server
// lacks; clean ones only let a drawing open offline, so only the open
// drawing's is kept. A copy the core cannot open goes to `rescued`.

import { EMPTY_DOCUMENT } from '../server/api.js';

const DATABASE = 'touchtracker';
const DRAWINGS = 'drawings';
const CHANGES = 'changes';
const META = 'meta';
const RESCUED = 'rescued';
const ALL = [DRAWINGS, CHANGES, META];
const LEGACY_PREFIX = 'touchtracker:drawing:'; // localStorage, before IndexedDB
const TAIL_PREFIX = 'touchtracker:tail:'; // localStorage, a journal's newest entries (`keepTail`)

let database = null;

function opened() {
  database ??= new Promise((resolve, reject) => {
    if (!globalThis.indexedDB) return reject(new Error('this browser has no IndexedDB'));
    const request = indexedDB.open(DATABASE, 2);
    request.onupgradeneeded = (event) => {
      const db = request.result;
      if (event.oldVersion < 1) {
        db.createObjectStore(DRAWINGS, { keyPath: 'name' });
        db.createObjectStore(RESCUED, { autoIncrement: true });
      }
      if (event.oldVersion < 2) {
        db.createObjectStore(CHANGES, { autoIncrement: true }).createIndex('name', 'name');
        db.createObjectStore(META, { keyPath: 'name' });
      }
    };
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
    request.onblocked = () => reject(new Error('another tab holds an older version of the storage open'));
  }).catch((error) => {
    database = null; // try again next time
    throw error;
  });
  return database;
}

/**
 * Runs `work(store)` (or `work(tx)` for several stores) in one transaction;
 * resolves once committed (durably: 'strict') with its last request's
 * result, or with what `work` left in `tx.result`.
 */
async function transact(storeNames, mode, work) {
  const db = await opened();
  return new Promise((resolve, reject) => {
    const tx = db.transaction(storeNames, mode, { durability: mode === 'readwrite' ? 'strict' : 'default' });
    let result;
    const request = work(Array.isArray(storeNames) ? tx : tx.objectStore(storeNames));
    if (request) request.onsuccess = () => (result = request.result);
    tx.oncomplete = () => resolve(result ?? tx.result);
    tx.onerror = () => reject(tx.error ?? new Error('the write failed'));
    tx.onabort = () => reject(tx.error ?? new Error('the write was aborted'));
  });
}

const isQuota = (error) => error?.name === 'QuotaExceededError';

/**
 * Replaces drawing `name`'s journal with `entries` within transaction `tx`:
 * the old entries' keys are read first, so that the new ones are never
 * among those deleted.
 */
function replaceChanges(tx, name, entries = []) {
  const changes = tx.objectStore(CHANGES);
  changes.index('name').getAllKeys(IDBKeyRange.only(name)).onsuccess = (event) => {
    for (const key of event.target.result) changes.delete(key);
    for (const entry of entries) changes.add({ name, entry });
  };
}

/**
 * A journal entry's text. Copies kept before the journal hold bare change
 * records: this person's when the copy was dirty, the server's otherwise.
 */
function entryText(stored, dirty) {
  if (typeof stored.entry === 'string') return stored.entry;
  return dirty ? `{"own":[${stored.record}]}` : `{"theirs":[${stored.record}],"revision":0}`;
}

/** Drawing `name`'s copy as stored, in one read: base, meta, and the journal or its length. */
function readParts(name, withChanges) {
  return transact(ALL, 'readonly', (tx) => {
    const parts = {};
    tx.objectStore(DRAWINGS).get(name).onsuccess = (event) => (parts.base = event.target.result);
    const changes = tx.objectStore(CHANGES).index('name');
    if (withChanges) changes.getAll(name).onsuccess = (event) => (parts.changes = event.target.result);
    else changes.count(name).onsuccess = (event) => (parts.entryCount = event.target.result);
    tx.objectStore(META).get(name).onsuccess = (event) => (parts.meta = event.target.result);
    tx.result = parts;
    return null;
  });
}

/**
 * What the copy says of itself: `{name, revision, pending, entryCount}`, or
 * null when there is none. A copy from before the journal counts its
 * `dirty` as pending work.
 */
function described(name, base, meta, entryCount) {
  if (!base && !entryCount) return null;
  const legacyDirty = meta?.pending === undefined && (meta?.dirty ?? base?.dirty ?? false);
  const pending = meta?.pending ?? (legacyDirty ? Math.max(entryCount, 1) : 0);
  return { name, revision: meta?.revision ?? base?.revision ?? null, pending, entryCount, legacyDirty, dirty: pending > 0 };
}

export const localCopies = {
  /** The copy of drawing `name`: `described` with `document` (the base's text) and `entries` (texts), or null. */
  async get(name) {
    const { base, changes, meta } = await readParts(name, true);
    const copy = described(name, base, meta, changes.length);
    if (!copy) return null;
    let document = base?.document ?? null;
    if (document instanceof Blob) document = await document.text();
    copy.entries = changes.map((stored) => entryText(stored, copy.legacyDirty));
    if (copy.legacyDirty && base?.dirty && document !== null) {
      // A whole document kept unsaved before the journal: its shapes are this person's to add.
      copy.entries.unshift(`{"document":${document}}`);
      document = null;
    }
    copy.document = document;
    // The revision the base is at; `revision` is the copy's after its entries.
    copy.baseRevision = document === null ? 0 : (base?.revision ?? null);
    return copy;
  },

  /** `described` alone: whether there is a copy, and whether it holds pending work. */
  async summary(name) {
    const { base, entryCount, meta } = await readParts(name, false);
    return described(name, base, meta, entryCount);
  },

  /** Appends journal `entries` (texts); the copy is at `revision` with `pending` changes after. Resolves once durable. */
  append(name, entries, revision, pending) {
    return transact([CHANGES, META], 'readwrite', (tx) => {
      const changes = tx.objectStore(CHANGES);
      for (const entry of entries) changes.add({ name, entry });
      tx.objectStore(META).put({ name, revision, pending, savedAt: Date.now() });
      return null;
    });
  },

  /**
   * Writes the copy anew: `document` (text or Blob) at `revision`, then
   * `entries`. When storage is full, clean copies of other drawings go
   * first. Resolves once durable, rejects with the reason otherwise.
   */
  async put(name, document, revision, entries = [], pending = 0) {
    const write = () =>
      transact(ALL, 'readwrite', (tx) => {
        tx.objectStore(DRAWINGS).put({ name, document, revision, savedAt: Date.now() });
        replaceChanges(tx, name, entries);
        tx.objectStore(META).put({ name, revision, pending, savedAt: Date.now() });
        return null;
      });
    try {
      await write();
    } catch (error) {
      if (!isQuota(error) || !(await this.pruneClean(name))) throw error;
      await write();
    }
  },

  /** Keeps the copy of `from` under `to` (a rename), its revisions moved up by `shift`. */
  async move(from, to, shift) {
    const copy = await this.get(from);
    if (!copy) return;
    const revision = copy.revision == null ? null : copy.revision + shift;
    await this.put(to, copy.document ?? EMPTY_DOCUMENT, revision, copy.entries, copy.pending);
    await this.remove(from);
  },

  remove(name) {
    return transact(ALL, 'readwrite', (tx) => {
      tx.objectStore(DRAWINGS).delete(name);
      replaceChanges(tx, name);
      tx.objectStore(META).delete(name);
      return null;
    });
  },

  /** Moves a copy that cannot be opened out of the way, keeping it for download. */
  async rescue(copy, problem) {
    await transact(RESCUED, 'readwrite', (store) => store.add({ ...copy, problem, rescuedAt: Date.now() }));
    await this.remove(copy.name);
  },

  /** Removes copies with nothing pending of every drawing but `keep`; true if any went. */
  async pruneClean(keep) {
    const stale = await transact([DRAWINGS, META], 'readonly', (tx) => {
      const found = [];
      const drawings = tx.objectStore(DRAWINGS);
      tx.objectStore(META).getAll().onsuccess = (event) => {
        const metas = new Map(event.target.result.map((meta) => [meta.name, meta]));
        drawings.openKeyCursor().onsuccess = ({ target: { result: cursor } }) => {
          if (!cursor) return;
          const name = cursor.key;
          const meta = metas.get(name);
          if (name !== keep && meta && (meta.pending === 0 || (meta.pending === undefined && meta.dirty === false))) {
            found.push(name);
          }
          cursor.continue();
        };
      };
      tx.result = found;
      return null;
    });
    for (const name of stale) await this.remove(name);
    return stale.length > 0;
  },

  /**
   * Once a page, before any copy is read: moves copies an older page kept
   * in localStorage into IndexedDB (unsaved ones only, never over a newer
   * copy), and takes in the tails pages left as they went (`keepTail`).
   */
  prepare() {
    this.preparing ??= this.moveLegacy()
      .catch(() => {})
      .then(() => this.adoptTails())
      .catch(() => {});
    return this.preparing;
  },

  /** The page's `prepare`, or null before its first call. */
  preparing: null,

  /**
   * Keeps the journal's newest `entries` in localStorage as well, written at
   * once: a page going away cannot wait for IndexedDB (its write may never
   * finish), and the request it sends then carries batches these entries
   * name. `length`: the journal's entries after its base with them.
   */
  keepTail(name, entries, length, revision, pending) {
    try {
      globalThis.localStorage?.setItem(TAIL_PREFIX + name, JSON.stringify({ entries, length, revision, pending }));
    } catch {
      // storage full or disabled: the journal in IndexedDB is all there is
    }
  },

  /** The tail of drawing `name` is in IndexedDB now. */
  dropTail(name) {
    try {
      globalThis.localStorage?.removeItem(TAIL_PREFIX + name);
    } catch {
      // storage disabled: there is no tail
    }
  },

  /** Appends each tail whose journal stops just before it (its write was lost); drops the rest. */
  async adoptTails() {
    const storage = globalThis.localStorage;
    if (!storage) return;
    const keys = [];
    for (let i = 0; i < storage.length; i++) {
      if (storage.key(i)?.startsWith(TAIL_PREFIX)) keys.push(storage.key(i));
    }
    for (const key of keys) {
      const name = key.slice(TAIL_PREFIX.length);
      let tail = null;
      try {
        tail = JSON.parse(storage.getItem(key));
      } catch {
        // not JSON: dropped below
      }
      const entries = Array.isArray(tail?.entries) && tail.entries.every((entry) => typeof entry === 'string') ? tail.entries : null;
      if (entries && Number.isInteger(tail.length)) {
        await transact(ALL, 'readwrite', (tx) => {
          const changes = tx.objectStore(CHANGES);
          tx.objectStore(DRAWINGS).count(name).onsuccess = ({ target: { result: bases } }) => {
            changes.index('name').count(IDBKeyRange.only(name)).onsuccess = ({ target: { result: count } }) => {
              if (bases !== 1 || count !== tail.length - entries.length) return;
              for (const entry of entries) changes.add({ name, entry });
              tx.objectStore(META).put({ name, revision: tail.revision ?? null, pending: tail.pending ?? 0, savedAt: Date.now() });
            };
          };
          return null;
        }).catch(() => {});
      }
      storage.removeItem(key);
    }
  },

  async moveLegacy() {
    let storage;
    try {
      storage = globalThis.localStorage;
    } catch {
      return; // storage disabled
    }
    if (!storage) return;
    const keys = [];
    for (let i = 0; i < storage.length; i++) {
      if (storage.key(i)?.startsWith(LEGACY_PREFIX)) keys.push(storage.key(i));
    }
    for (const key of keys) {
      let old = null;
      try {
        old = JSON.parse(storage.getItem(key));
      } catch {
        // unreadable JSON: rescued below as text
      }
      const name = key.slice(LEGACY_PREFIX.length);
      if (old?.dirty && typeof old.document === 'string') {
        if (!(await this.summary(name))) {
          // Its shapes are this person's, added on top of whatever the server has.
          await this.put(name, EMPTY_DOCUMENT, null, [`{"document":${old.document}}`], 1);
        }
      } else if (!old) {
        await transact(RESCUED, 'readwrite', (store) =>
          store.add({ name, document: storage.getItem(key), problem: 'not JSON', rescuedAt: Date.now() }),
        );
      }
      storage.removeItem(key);
    }
  },
};
