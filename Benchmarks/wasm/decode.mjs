// Row 9: opening a document in the wasm against JSON.parse of the same text.
//
//   node Benchmarks/wasm/decode.mjs WASM DOCUMENT [REPEATS]
//
// Ours: tt_load_document on the document's bytes, already in the buffer
// tt_alloc gave (decoding, checking, ids, loading into the DrawView: what
// the page waits for). Baseline, interleaved in the same run: JSON.parse of
// the same document as a JS string (what a page holding the text would call
// to get plain objects, no checking). Median of REPEATS (default 9) each.
// Prints one JSON object.
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

const [wasmPath, documentPath, repeatsText] = process.argv.slice(2);
const repeats = Number(repeatsText ?? 9);
const bytes = readFileSync(documentPath);
const text = bytes.toString('utf8');

const { instance } = await WebAssembly.instantiate(readFileSync(wasmPath), {});
const tt = instance.exports;
tt.tt_init(1280, 720);

function load() {
  const pointer = tt.tt_alloc(bytes.length);
  if (pointer === 0) throw new Error(`tt_alloc(${bytes.length}) refused`);
  new Uint8Array(tt.memory.buffer, pointer, bytes.length).set(bytes);
  const start = performance.now();
  const problem = tt.tt_load_document(bytes.length);
  const elapsed = performance.now() - start;
  if (problem !== 0) {
    const message = new TextDecoder().decode(new Uint8Array(tt.memory.buffer, tt.tt_out_ptr(), problem));
    throw new Error(`tt_load_document: ${message}`);
  }
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
load();
parse(); // warm up both
const ours = [];
const baseline = [];
for (let run = 0; run < repeats; run++) {
  ours.push(load());
  baseline.push(parse());
}
const state = JSON.parse(new TextDecoder().decode(new Uint8Array(tt.memory.buffer, tt.tt_out_ptr(), tt.tt_state())));
console.log(JSON.stringify({
  bytes: bytes.length, lines: state.lines, repeats,
  loadDocumentMs: median(ours), jsonParseMs: median(baseline), ratio: median(ours) / median(baseline),
}));
