// Row 9: opening a document in the wasm against JSON.parse of the same text.
//
//   node Benchmarks/wasm/decode.mjs WASM DOCUMENT [REPEATS]
//
// Ours: what the page does (Web/core/bridge.js), tt_load_document_streamed
// reading the document's text through the `tt.read_input` import, a chunk
// at a time written with TextEncoder.encodeInto (decoding, checking, ids,
// loading into the DrawView: what the page waits for); beside it
// tt_load_document on the bytes already in the buffer tt_alloc gave (the
// page's way before, which held the whole text in the wasm memory). Baseline, interleaved in the same run: JSON.parse of
// the same document as a JS string (what a page holding the text would call
// to get plain objects, no checking). Median of REPEATS (default 9) each.
// Prints one JSON object.
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

const [wasmPath, documentPath, repeatsText] = process.argv.slice(2);
const repeats = Number(repeatsText ?? 9);
const bytes = readFileSync(documentPath);
const text = bytes.toString('utf8');

const encoder = new TextEncoder();
let source = null;
function readInput(offset, pointer, capacity) {
  if (offset === 0) source = { bytes: 0, chars: 0 };
  else if (offset !== source.bytes) return -1;
  const { chars } = source;
  if (chars >= text.length) return 0;
  let end = Math.min(text.length, chars + capacity);  // as Web/core/bridge.js slices
  if (end < text.length && (text.charCodeAt(end - 1) & 0xfc00) === 0xd800) end--;
  const view = new Uint8Array(tt.memory.buffer, pointer >>> 0, capacity);
  const { read, written } = encoder.encodeInto(text.substring(chars, end), view);
  if (written === 0) return -1;
  source.chars += read;
  source.bytes += written;
  return written;
}
const { instance } = await WebAssembly.instantiate(readFileSync(wasmPath), { tt: { read_input: readInput } });
const tt = instance.exports;
tt.tt_init(1280, 720);

function problem(length, what) {
  const message = new TextDecoder().decode(new Uint8Array(tt.memory.buffer, tt.tt_out_ptr(), length));
  return new Error(`${what}: ${message}`);
}

function stream() {
  const start = performance.now();
  const result = tt.tt_load_document_streamed(text.length);
  const elapsed = performance.now() - start;
  if (result !== 0) throw problem(result, 'tt_load_document_streamed');
  return elapsed;
}

function load() {
  const pointer = tt.tt_alloc(bytes.length);
  if (pointer === 0) throw new Error(`tt_alloc(${bytes.length}) refused`);
  new Uint8Array(tt.memory.buffer, pointer, bytes.length).set(bytes);
  const start = performance.now();
  const result = tt.tt_load_document(bytes.length);
  const elapsed = performance.now() - start;
  if (result !== 0) throw problem(result, 'tt_load_document');
  return elapsed;
}

function parse() {
  const start = performance.now();
  const value = JSON.parse(text);
  const elapsed = performance.now() - start;
  if (!Array.isArray(value.lines)) throw new Error('JSON.parse: no lines');
  return elapsed;
}

const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1];
stream();
load();
parse(); // warm up all three
const ours = [];
const buffered = [];
const baseline = [];
for (let run = 0; run < repeats; run++) {
  ours.push(stream());
  buffered.push(load());
  baseline.push(parse());
}
const state = JSON.parse(new TextDecoder().decode(new Uint8Array(tt.memory.buffer, tt.tt_out_ptr(), tt.tt_state())));
console.log(JSON.stringify({
  bytes: bytes.length, lines: state.lines, repeats,
  loadDocumentMs: median(ours), fromBufferMs: median(buffered), jsonParseMs: median(baseline),
  ratio: median(ours) / median(baseline),
}));
