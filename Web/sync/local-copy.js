// Copies of drawings kept in this browser, in IndexedDB: asynchronous, and
// with no 5 MB quota like localStorage's. A copy reads as one record per
// drawing name, { name, document, revision, dirty, savedAt }, kept as
//   - `drawings`: the document as it was at some point (the base), written
//     whole only when the page opens a drawing, saves a whole document, or
//     folds in many changes;
//   - `changes`: the change records since that base, in order, one small
//     entry per finished change (docs/DESIGN.md, "Changes"), so keeping a
//     change costs the change, not the drawing;
//   - `meta`: the revision and dirtiness after the newest change, so an
//     acknowledgement rewrites no document.
// `dirty` copies hold changes the server has not acknowledged and are never
// dropped without the person saying so; clean ones only let a drawing open
// offline, so only the open drawing's is kept. A copy that cannot be opened
// any more is moved to the `rescued` store rather than overwritten.

const DATABASE = 'touchtracker';
const DRAWINGS = 'drawings';
const CHANGES = 'changes';
const META = 'meta';
const RESCUED = 'rescued';
const ALL = [DRAWINGS, CHANGES, META];
const LEGACY_PREFIX = 'touchtracker:drawing:'; // localStorage, before IndexedDB

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
        // Keys grow with every change, so a drawing's entries read back in order.
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
 * resolves once committed with its last request's result, or with what
 * `work` left in `tx.result`.
 */
async function transact(storeNames, mode, work) {
  const db = await opened();
  return new Promise((resolve, reject) => {
    // 'strict': the write is on disk when the transaction completes, not just in a cache.
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
const EMPTY = '{"format":"touchtracker","version":1,"lines":[],"circles":[]}';

/** Deletes drawing `name`'s change entries within transaction `tx`. */
function deleteChanges(tx, name) {
  const request = tx.objectStore(CHANGES).index('name').openKeyCursor(IDBKeyRange.only(name));
  request.onsuccess = () => {
    const cursor = request.result;
    if (!cursor) return;
    tx.objectStore(CHANGES).delete(cursor.primaryKey);
    cursor.continue();
  };
}

/**
 * The document `text` with change `records` (JSON texts) applied in order,
 * as the core's `Drawing.apply` does: deleting or moving an absent id does
 * nothing, adding a present id (line or circle) takes that shape out first. Numbers and keys are
 * written back as they were read, so an unchanged drawing reads the same.
 */
export function applyChanges(text, records) {
  const document = JSON.parse(text);
  let lines = document.lines ?? [];
  let circles = document.circles ?? [];
  for (const recordText of records) {
    const change = JSON.parse(recordText);
    if (change.op === 'add') {
      // A shape whose id is added again (as a line or a circle) is taken out first: ids stay unique.
      const added = change.lines ?? [];
      const ids = new Set([...added, ...(change.circles ?? [])].map((shape) => shape.id));
      lines = lines.filter((line) => !ids.has(line.id));
      circles = circles.filter((circle) => !ids.has(circle.id));
      const at = Math.min(Math.max(change.at ?? lines.length, 0), lines.length);
      // Not splice(...added): a call takes at most ~100k arguments, and undoing a clear adds every line.
      lines = lines.slice(0, at).concat(added, lines.slice(at));
      circles = circles.concat(change.circles ?? []);
    } else if (change.op === 'delete') {
      if (change.line !== undefined) lines = lines.filter((line) => line.id !== change.line);
      if (change.circle !== undefined) circles = circles.filter((circle) => circle.id !== change.circle);
    } else if (change.op === 'move' && change.line !== undefined) {
      const line = lines.find((l) => l.id === change.line);
      if (line) Object.assign(line, { begin: change.begin, end: change.end });
    } else if (change.op === 'move') {
      const circle = circles.find((c) => c.id === change.circle);
      if (circle) circle.center = change.center;
    } else if (change.op === 'clear') {
      lines = [];
      circles = [];
    }
  }
  return JSON.stringify({ ...document, lines, circles });
}

/**
 * Drawing `name`'s copy as stored, in one read: its base, its meta and its
 * change entries (`withChanges`), or only how many there are.
 */
function readParts(name, withChanges) {
  return transact(ALL, 'readonly', (tx) => {
    const parts = {};
    tx.objectStore(DRAWINGS).get(name).onsuccess = (event) => (parts.base = event.target.result);
    const changes = tx.objectStore(CHANGES).index('name');
    if (withChanges) changes.getAll(name).onsuccess = (event) => (parts.changes = event.target.result);
    else changes.count(name).onsuccess = (event) => (parts.changeCount = event.target.result);
    tx.objectStore(META).get(name).onsuccess = (event) => (parts.meta = event.target.result);
    tx.result = parts;
    return null;
  });
}

/** A copy's record without its document, from its `base` and `meta`; null when there is no copy. */
function described(name, base, meta, changeCount) {
  if (!base && !changeCount) return null;
  const { document: _, ...kept } = base ?? {};
  return { name, revision: null, dirty: true, savedAt: 0, ...kept, ...meta, changeCount };
}

export const localCopies = {
  /** The copy of drawing `name` (its base with its changes applied), or null. */
  async get(name) {
    const { base, changes, meta } = await readParts(name, true);
    const record = described(name, base, meta, changes.length);
    if (!record) return null;
    // A base kept straight from a download is its bytes (a Blob: no 10 MB string made to keep it).
    let document = base?.document;
    if (document instanceof Blob) document = await document.text();
    record.document = changes.length ? applyChanges(document ?? EMPTY, changes.map((c) => c.record)) : document;
    return record;
  },

  /**
   * What `get` answers but the document, which is not read: whether there
   * is a copy of drawing `name`, and whether it is dirty. A clean copy of a
   * drawing the server answers for is not needed, and making its document
   * (a 10 MB text read, its change entries applied) was ~0.2 s of the page's
   * thread while a big drawing opened.
   */
  async summary(name) {
    const { base, changeCount, meta } = await readParts(name, false);
    return described(name, base, meta, changeCount);
  },

  /**
   * Adds change records (their JSON texts) after the copy's newest, which
   * now builds on server revision `revision` and is dirty. Rewrites no
   * document; resolves once durable.
   */
  addChanges(name, records, revision) {
    return transact([CHANGES, META], 'readwrite', (tx) => {
      const changes = tx.objectStore(CHANGES);
      for (const record of records) changes.add({ name, record });
      tx.objectStore(META).put({ name, revision, dirty: true, savedAt: Date.now() });
      return null;
    });
  },

  /**
   * Keeps `record` as the copy's base, dropping its change entries; resolves
   * once durable (with true when it had to be written again after storage
   * was full: entries added meanwhile went too), rejects with the reason
   * otherwise. When storage is full, clean copies of other drawings go first.
   */
  async put(record) {
    const write = () => transact(ALL, 'readwrite', (tx) => {
      tx.objectStore(DRAWINGS).put(record);
      deleteChanges(tx, record.name);
      tx.objectStore(META).delete(record.name);
      return null;
    });
    try {
      await write();
      return false;
    } catch (error) {
      if (!isQuota(error) || !(await this.pruneClean(record.name))) throw error;
      await write();
      return true; // written late: changes added meanwhile were dropped with the old ones
    }
  },

  /**
   * The server acknowledged the copy's changes up to `revision`: the copy
   * builds on that revision now, and is clean when `clean` (it holds
   * nothing the server lacks). Rewrites no document.
   */
  markSaved(name, revision, clean) {
    return transact([DRAWINGS, META], 'readwrite', (tx) => {
      const meta = tx.objectStore(META);
      const request = meta.get(name);
      request.onsuccess = () => {
        if (request.result) {
          meta.put({ ...request.result, revision, dirty: request.result.dirty && !clean });
          return;
        }
        // No change since the base: note the acknowledgement beside it.
        const base = tx.objectStore(DRAWINGS).get(name);
        base.onsuccess = () => {
          if (base.result) meta.put({ name, revision, dirty: base.result.dirty && !clean, savedAt: Date.now() });
        };
      };
      return null;
    });
  },

  /** Keeps the copy of `from` under `to` (a rename), its revision moved up by `shift`; resolves once durable. */
  async move(from, to, shift) {
    const copy = await this.get(from);
    if (!copy) return;
    const { changeCount, ...record } = copy;
    await this.put({ ...record, name: to, revision: copy.revision == null ? null : copy.revision + shift });
    await this.remove(from);
  },

  remove(name) {
    return transact(ALL, 'readwrite', (tx) => {
      tx.objectStore(DRAWINGS).delete(name);
      deleteChanges(tx, name);
      tx.objectStore(META).delete(name);
      return null;
    });
  },

  /** Moves a copy that cannot be opened out of the way, keeping it for download. */
  async rescue(record, problem) {
    await transact(RESCUED, 'readwrite', (store) => store.add({ ...record, problem, rescuedAt: Date.now() }));
    const current = await this.get(record.name);
    if (current && current.document === record.document) await this.remove(record.name);
  },

  /**
   * Removes clean copies of every drawing but `keep`; true if any went.
   * Reads names first and never `keep`'s copy: the open drawing's is often
   * the biggest (a million lines are ~100 MB to read back).
   */
  async pruneClean(keep) {
    const stale = await transact([DRAWINGS, META], 'readonly', (tx) => {
      const found = [];
      const drawings = tx.objectStore(DRAWINGS);
      tx.objectStore(META).getAll().onsuccess = (event) => {
        const dirty = new Map(event.target.result.map((meta) => [meta.name, meta.dirty]));
        drawings.openKeyCursor().onsuccess = ({ target: { result: cursor } }) => {
          if (!cursor) return;
          const name = cursor.key;
          // The meta record says whether the copy holds unsaved changes; without it (or its answer), the copy does.
          if (name !== keep && dirty.get(name) !== undefined) {
            if (!dirty.get(name)) found.push(name);
          } else if (name !== keep) {
            drawings.get(name).onsuccess = ({ target: { result } }) => {
              if (result && !result.dirty) found.push(name);
            };
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
   * Moves copies an older version of the page kept in localStorage into
   * IndexedDB (unsaved ones only, and never over a newer copy), then removes
   * them. Once a page: later calls answer the first's promise.
   */
  migrateLegacy() {
    this.migration ??= this.moveLegacy().catch(() => {});
    return this.migration;
  },

  /** The page's `migrateLegacy`, or null before its first call. */
  migration: null,

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
          await this.put({ name, document: old.document, revision: old.revision ?? null, dirty: true, savedAt: Date.now() });
        }
      } else if (!old) {
        await this.rescue({ name, document: storage.getItem(key), revision: null, dirty: true }, 'not JSON');
      }
      storage.removeItem(key);
    }
  },
};
