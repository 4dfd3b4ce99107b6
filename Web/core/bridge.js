// The one place the page talks to the Swift core (touchtracker.wasm): loading
// the module, reading its memory, and the interface constants both sides share.
// The exports are the shims in Sources/TouchTrackerCore/Wasm; the constants
// below are declared in Swift (Host/PageInterface.swift, PageHost.TouchStatus,
// DrawingName) and PageInterfaceTests fails if these copies differ.

/** Touch phases as `tt_touch` takes them. */
export const PHASE = { began: 0, moved: 1, stationary: 2, ended: 3, cancelled: 4 };
/** What made a touch, as `tt_touch` takes it (TouchType.swift). */
export const TOUCH_TYPE = { direct: 0, pencil: 1, indirectPointer: 2 };
/** What `tt_touch` answers. */
export const STATUS = { queued: 0, unknownPhase: 1, notFinite: 2, notDown: 3, refused: 4 };
/** Floats per render command: [kind, a, b, c, d, width, rgb, extra] (RenderList.swift). */
export const STRIDE = 8;
/** How to apply what `tt_render_static` returned (`tt_static_mode`). */
export const STATIC = { whole: 0, append: 1, repaint: 2, wholeInParts: 3 };
/** A render command's kind, its first float. */
export const KIND = { segment: 1, circle: 2, fill: 3, text: 4, clip: 5 };
/** The floats `tt_probe_line` writes, by position. */
export const PROBE = { x: 0, y: 1, width: 2, rgb: 3 };
/** `tt_viewport` commands (PageHost.ViewportCommand). */
export const VIEWPORT = { pan: 0, zoom: 1, actualSize: 2, fit: 3, zoomIn: 4, zoomOut: 5 };
/** The events `tt_sync` hands the sync client (PageHost.SyncInput). */
export const SYNC = {
  socket_opened: 0, socket_closed: 1, opened: 2, restore: 3, collect: 4, flush: 5, connected: 6, disconnected: 7,
  message: 8, answered: 9, refused: 10, pulled: 11, replaced: 12, rewrite: 13, renamed: 14, leaving: 15,
};
/** The canvas's keys as `tt_key` takes them (KeyCommand.swift). */
export const KEY = {
  next: 0, previous: 1, first: 2, last: 3, left: 4, right: 5, up: 6, down: 7,
  fineLeft: 8, fineRight: 9, fineUp: 10, fineDown: 11, activate: 12, drawLine: 13, cancel: 14, blur: 15,
};
/** Drawing names the server accepts (DrawingName.swift). */
export const NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * The core's time, in seconds, for a browser time in milliseconds (event
 * timestamps, animation frames, performance.now()). Tests skip time forward
 * with `skipTime` instead of sleeping; it only ever grows, so the core's
 * clock never goes back.
 */
export const coreTime = (ms) => ms / 1000 + skipped;
let skipped = 0;
export function skipTime(seconds) {
  if (seconds > 0) skipped += seconds;
}

/** The wasm exports, once `startCore` has run. */
export let tt = null;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export async function startCore(width, height) {
  tt = await instantiate();
  tt.tt_init(width, height);
  return tt;
}

/**
 * Whether the browser can suspend the core while it waits for JavaScript
 * (JSPI: `WebAssembly.Suspending`, `WebAssembly.promising`, Chromium 137 on).
 * Then the core reads a drawing as its download comes in (`openDownload`);
 * without it the page reads the whole text first, as before.
 */
const suspends = typeof WebAssembly.Suspending === 'function' && typeof WebAssembly.promising === 'function';

/** What the module imports: the document being opened, a chunk at a time (`loadDocument`). */
const imports = { tt: { read_input: suspends ? new WebAssembly.Suspending(readInput) : readInput } };

/** `tt_load_document_streamed`, as a function that may suspend (a promise) when `suspends`. */
let loadStreamed = null;

/**
 * Beside this module, so the page served from its version folder
 * (`assets/VERSION/`, one name for one content) gets the wasm of the same
 * version, the one index.html preloads.
 */
const WASM = new URL('../touchtracker.wasm', import.meta.url);

async function instantiate() {
  let instance;
  try {
    ({ instance } = await WebAssembly.instantiateStreaming(fetch(WASM), imports));
  } catch (error) {
    // Served with the wrong MIME type: compile from the bytes instead.
    const response = await fetch(WASM);
    if (!response.ok) throw error;
    ({ instance } = await WebAssembly.instantiate(await response.arrayBuffer(), imports));
  }
  const exports = instance.exports;
  if (exports.tt_load_document_streamed) {
    loadStreamed = suspends ? WebAssembly.promising(exports.tt_load_document_streamed) : exports.tt_load_document_streamed;
  }
  return exports;
}

/**
 * The document being handed over: `{ text, bytes, chars }` (a string and how
 * far it got, in UTF-8 bytes and characters), or `{ chunks, reader, bytes,
 * at, within }` (a download's bytes as they come: all kept, since the core
 * may read again from 0; `at`/`within` where byte `bytes` is); either
 * with `since`, when the core last had a break (see `READ_SLICE_MS`).
 */
let source = null;

/**
 * The longest the core reads a document without a break, in milliseconds,
 * where it can wait (`suspends`): then it waits for the page's next task,
 * so that input, frames and the network are not held up while it opens a
 * big drawing (~10 ms a megabyte here; 100 MB for a million lines). It is
 * asked at each of the core's reads (a megabyte at a time).
 */
const READ_SLICE_MS = 8;

/** A promise resolved in a task of its own, after what is queued (no 4 ms clamp as with timers). */
const nextTask = (() => {
  const channel = new MessageChannel();
  const waiting = [];
  channel.port1.onmessage = () => waiting.shift()?.();
  return () =>
    new Promise((resolve) => {
      waiting.push(resolve);
      channel.port2.postMessage(null);
    });
})();

/**
 * `tt.read_input(offset, ptr, capacity)`: writes the document's UTF-8 from
 * byte `offset` on into `capacity` bytes at `ptr` and answers how many
 * (0 at the end). The core asks in order from 0 (and from 0 again when its
 * reader hands the document to the tree decoder); -1 for anything else.
 * A download's next bytes may not be here yet: then it answers a promise
 * of them, and the core waits (suspended) while the page runs on; it
 * waits too when it has read for `READ_SLICE_MS`.
 */
function readInput(offset, ptr, capacity) {
  if (source === null) return -1;
  if (suspends && performance.now() - source.since > READ_SLICE_MS) {
    const from = source;
    return nextTask().then(() => {
      if (source !== from) return -1;
      from.since = performance.now();
      return readInput(offset, ptr, capacity);
    });
  }
  if (offset === 0) {
    source.bytes = 0;
    source.chars = 0;
    source.at = 0;
    source.within = 0;
  } else if (offset !== source.bytes) return -1;
  if (source.chunks) return readChunks(ptr, capacity);
  const { text, chars } = source;
  if (chars >= text.length) return 0;
  // A slice of at most `capacity` characters: encodeInto on the rest of a
  // 100 MB string costs time in proportion to all of it on every call. The
  // slice never ends between the two halves of a surrogate pair.
  let end = Math.min(text.length, chars + capacity);
  if (end < text.length && (text.charCodeAt(end - 1) & 0xfc00) === 0xd800) end--;
  const { read, written } = encoder.encodeInto(text.substring(chars, end), bytes(ptr, capacity));
  // Nothing fits (a chunk shorter than the next character): not the end.
  if (written === 0) return -1;
  source.chars += read;
  source.bytes += written;
  return written;
}

/** `readInput` from a download's chunks: what has come, or a promise of the next chunk. */
function readChunks(ptr, capacity) {
  const download = source;
  if (download.at === download.chunks.length) {
    if (!download.reader) return 0;
    return download.reader.read().then(
      ({ done, value }) => {
        if (source !== download) return -1;
        download.since = performance.now(); // it waited: a break
        if (done) download.reader = null;
        else if (value.length) download.chunks.push(value);
        return readChunks(ptr, capacity);
      },
      (error) => {
        download.failure = error;
        return -1;
      },
    );
  }
  let written = 0;
  while (written < capacity && download.at < download.chunks.length) {
    const chunk = download.chunks[download.at];
    const count = Math.min(capacity - written, chunk.length - download.within);
    bytes(ptr + written, count).set(chunk.subarray(download.within, download.within + count));
    written += count;
    download.within += count;
    if (download.within === chunk.length) {
      download.at++;
      download.within = 0;
    }
  }
  download.bytes += written;
  return written;
}

// Wasm returns pointers as i32: `>>> 0` reads them unsigned, so memory past
// 2 GiB is not mistaken for a negative offset. Views are made fresh on every
// call because a memory growth detaches the old ones.
export const f32 = (ptr, count) => new Float32Array(tt.memory.buffer, ptr >>> 0, count);
export const bytes = (ptr, count) => new Uint8Array(tt.memory.buffer, ptr >>> 0, count);
export const decodeText = (view) => decoder.decode(view);
export const readOut = (length) => decoder.decode(bytes(tt.tt_out_ptr(), length));
/** A length the core answered, or an error when it is -1 (its memory ran out). */
const checked = (length) => {
  if (length < 0) throw new Error('the drawing does not fit in memory');
  return length;
};
export const documentText = () => readOut(checked(tt.tt_export_document()));
export const svgText = () => readOut(checked(tt.tt_export_svg()));
/** The drawing in words for screen readers (`tt_description`); '' for a core without it. */
export const drawingDescription = () => (tt.tt_description ? readOut(checked(tt.tt_description())) : '');
export const coreState = () => JSON.parse(readOut(checked(tt.tt_state())));
/**
 * Hands the sync client one event (`tt_sync`, a name of `SYNC`;
 * Sources/TouchTrackerCore/Sync): `text`, when given, goes into the core's
 * input buffer, and `a`, `b` are its numbers. Answers `{revision, pending,
 * connection, effects}`, or `{error}` when the core refused it.
 */
export function syncEvent(name, text = null, a = -1, b = -1) {
  let bytes = 0;
  if (text !== null) {
    bytes = written(text);
    if (bytes < 0) return { error: 'too large' };
  }
  const length = tt.tt_sync(SYNC[name], bytes, a, b);
  if (length < 0) return { error: 'the core ran out of memory' };
  return JSON.parse(readOut(length));
}

/** The drawing without this page's unacknowledged changes, as document text (this browser's copy's base). */
export const syncBaseText = () => readOut(checked(tt.tt_sync_base_document()));

/**
 * Copies `text` into the core's input buffer and runs `exported(length)`
 * on it; null, or the reason it was refused (`tooLarge`, `noMemory`, or
 * the core's own message).
 */
function handOver(text, exported, tooLarge, noMemory) {
  const length = written(text);
  if (length < 0) return tooLarge;
  const result = exported(length);
  if (result < 0) return noMemory;
  return result === 0 ? null : readOut(result);
}

/**
 * Writes `text` as UTF-8 into the core's input buffer; its length in bytes,
 * or -1 when the core refused a buffer that large. Straight into the wasm
 * memory (no copy of a 100 MB document on the JS heap) when it is ASCII, as
 * documents are: then its UTF-8 is as long as the string.
 */
function written(text) {
  const ptr = tt.tt_alloc(text.length) >>> 0;
  if (ptr === 0) return -1;
  const { read, written: length } = encoder.encodeInto(text, bytes(ptr, text.length));
  if (read === text.length) return length;
  const data = encoder.encode(text);
  const wider = tt.tt_alloc(data.length) >>> 0;
  if (wider === 0) return -1;
  bytes(wider, data.length).set(data);
  return data.length;
}

/** The bytes of the document being opened that the core has read so far (0 when none is). */
export const openingBytes = () => source?.bytes ?? 0;

/** Loads run one at a time: a suspended one must not be overtaken (the core's stack is one). */
let loading = Promise.resolve();

/** Runs `tt_load_document_streamed` on `from` (a `source`) after the loads before it; null, or the reason. */
function loadFrom(from, length) {
  const run = async () => {
    source = from;
    from.since = performance.now();
    try {
      const result = await loadStreamed(length);
      // The download broke off: nothing was loaded.
      if (from.failure) throw new DownloadBroken(from.failure);
      if (result < 0) return 'The document does not fit in memory';
      return result === 0 ? null : readOut(result);
    } finally {
      source = null;
    }
  };
  const done = loading.then(run, run);
  loading = done.catch(() => {});
  return done;
}

/**
 * Opens a document in the core: a promise of null, or of the reason it was
 * refused. The core reads the text a chunk at a time (`readInput`) instead
 * of a copy of all of it in its memory: that memory never shrinks, and a
 * million lines are ~100 MB of text.
 */
export async function loadDocument(text) {
  if (!loadStreamed) {
    // A module from before it (an offline copy of another version): the whole text in its buffer.
    return handOver(text, tt.tt_load_document, 'The document is too large', 'The document does not fit in memory');
  }
  return loadFrom({ text }, text.length);
}

/**
 * Opens the drawing a download (`response`, 200) holds, reading it as it
 * comes in where the browser lets the core wait (`suspends`): the decoding
 * runs while the rest arrives, and no copy of the whole text is made. A
 * promise of `{ problem, document }`: problem null or the reason it was
 * refused, and `document()` the drawing's text or bytes (a Blob), for this
 * browser's copy. It rejects with `DownloadBroken`, loading nothing, when
 * the download breaks off.
 */
export async function openDownload(response) {
  if (!suspends || !loadStreamed || !response.body) {
    const text = await downloadText(response);
    return { problem: await loadDocument(text), document: () => text };
  }
  const download = { chunks: [], reader: response.body.getReader() };
  // A lower bound on the bytes, so that a document too big is refused before reading.
  const length = Math.min(Number(response.headers.get('Content-Length')) || 0, 0x7fffffff);
  try {
    const problem = await loadFrom(download, length);
    // The Blob is made when it is kept (a copy of the bytes): not while the drawing is first painted.
    return { problem, document: () => new Blob(download.chunks, { type: 'application/json' }) };
  } finally {
    if (download.reader) download.reader.cancel().catch(() => {});
  }
}

/** A download that broke off before its end (the network, or the server, went away). */
export class DownloadBroken extends Error {
  constructor(cause) {
    super(`the download broke off: ${cause?.message ?? cause}`, { cause });
    this.name = 'DownloadBroken';
  }
}

/** `response`'s text; rejects with `DownloadBroken` when its download breaks off. */
export function downloadText(response) {
  return response.text().catch((error) => {
    throw new DownloadBroken(error);
  });
}

/** Plays a trace instead of the drawing (ui/recorder.js); null, or the reason it was refused. */
export function startTrace(text) {
  return handOver(text, tt.tt_play_start, 'it is too large', 'it does not fit in memory');
}

/** This page's lines in progress as `{"lines":[...]}` (presence for others). */
export const presenceText = () => readOut(checked(tt.tt_presence()));
