// Copies of drawings kept in this browser, in IndexedDB: asynchronous, and
// with no 5 MB quota like localStorage's. One record per drawing name:
// { name, document, revision, dirty, savedAt }. `dirty` copies hold changes
// the server has not acknowledged and are never dropped without the person
// saying so; clean ones only let a drawing open offline, so only the open
// drawing's is kept. A copy that cannot be opened any more is moved to the
// `rescued` store rather than overwritten.

const DATABASE = 'touchtracker';
const DRAWINGS = 'drawings';
const RESCUED = 'rescued';
const LEGACY_PREFIX = 'touchtracker:drawing:'; // localStorage, before IndexedDB

let database = null;

function opened() {
  database ??= new Promise((resolve, reject) => {
    if (!globalThis.indexedDB) return reject(new Error('this browser has no IndexedDB'));
    const request = indexedDB.open(DATABASE, 1);
    request.onupgradeneeded = () => {
      request.result.createObjectStore(DRAWINGS, { keyPath: 'name' });
      request.result.createObjectStore(RESCUED, { autoIncrement: true });
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

/** Runs `work(store)` in one transaction; resolves with its last request's result once committed. */
async function transact(storeName, mode, work) {
  const db = await opened();
  return new Promise((resolve, reject) => {
    // 'strict': the write is on disk when the transaction completes, not just in a cache.
    const tx = db.transaction(storeName, mode, { durability: mode === 'readwrite' ? 'strict' : 'default' });
    let result;
    const request = work(tx.objectStore(storeName));
    if (request) request.onsuccess = () => (result = request.result);
    tx.oncomplete = () => resolve(result);
    tx.onerror = () => reject(tx.error ?? new Error('the write failed'));
    tx.onabort = () => reject(tx.error ?? new Error('the write was aborted'));
  });
}

const isQuota = (error) => error?.name === 'QuotaExceededError';

export const localCopies = {
  /** The copy of drawing `name`, or null. */
  get(name) {
    return transact(DRAWINGS, 'readonly', (store) => store.get(name)).then((record) => record ?? null);
  },

  /**
   * Keeps `record`; resolves once it is durable, rejects with the reason
   * otherwise. When storage is full, clean copies of other drawings go first.
   */
  async put(record) {
    try {
      await transact(DRAWINGS, 'readwrite', (store) => store.put(record));
    } catch (error) {
      if (!isQuota(error) || !(await this.pruneClean(record.name))) throw error;
      await transact(DRAWINGS, 'readwrite', (store) => store.put(record));
    }
  },

  remove(name) {
    return transact(DRAWINGS, 'readwrite', (store) => store.delete(name));
  },

  /** Moves a copy that cannot be opened out of the way, keeping it for download. */
  async rescue(record, problem) {
    await transact(RESCUED, 'readwrite', (store) => store.add({ ...record, problem, rescuedAt: Date.now() }));
    const current = await this.get(record.name);
    if (current && current.document === record.document) await this.remove(record.name);
  },

  /** Removes clean copies of every drawing but `keep`; true if any went. */
  async pruneClean(keep) {
    const records = await transact(DRAWINGS, 'readonly', (store) => store.getAll());
    const stale = records.filter((record) => !record.dirty && record.name !== keep);
    for (const record of stale) await this.remove(record.name);
    return stale.length > 0;
  },

  /**
   * Moves copies an older version of the page kept in localStorage into
   * IndexedDB (unsaved ones only, and never over a newer copy), then removes them.
   */
  async migrateLegacy() {
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
        if (!(await this.get(name))) {
          await this.put({ name, document: old.document, revision: old.revision ?? null, dirty: true, savedAt: Date.now() });
        }
      } else if (!old) {
        await this.rescue({ name, document: storage.getItem(key), revision: null, dirty: true }, 'not JSON');
      }
      storage.removeItem(key);
    }
  },
};
