// tt_init called again must not leak: the page may start over as often as it
// likes. Calls tt_init 200 times, each time drawing lines and loading a
// document, and fails when the wasm memory keeps growing (it used to grow
// ~1.8 MB a call and run out after 63). Also checks that every pointer an
// export returns is a positive i32 (the memory is capped at 2 GiB). Every
// other round opens the document the way the page does, handed over a chunk
// at a time through the module's one import (`tt.read_input`), with chunks
// of at most 1000 bytes here, so the core asks many times.
//
//   node Tests/wasm/reinit.mjs [Web/touchtracker.wasm]
import { readFileSync } from 'node:fs';

const wasmPath = process.argv[2] ?? new URL('../../Web/touchtracker.wasm', import.meta.url).pathname;
let asked = 0;
function readInput(offset, pointer, capacity) {
  asked++;
  const count = Math.max(0, Math.min(capacity, 1000, documentBytes.length - offset));
  new Uint8Array(memory.buffer, pointer >>> 0, count).set(documentBytes.subarray(offset, offset + count));
  return count;
}
const { instance } = await WebAssembly.instantiate(readFileSync(wasmPath), { tt: { read_input: readInput } });
const tt = instance.exports;
const memory = tt.memory;

const lines = Array.from({ length: 2000 }, (_, i) => ({
  begin: { x: i, y: 10 }, end: { x: i + 50, y: 300 }, color: '#000000', width: 10,
}));
const documentBytes = new TextEncoder().encode(JSON.stringify({ format: 'touchtracker', version: 1, lines, circles: [] }));

function session(round) {
  tt.tt_init(1280, 720);
  if (round % 2 === 1) {
    asked = 0;
    const problem = tt.tt_load_document_streamed(documentBytes.length);
    if (problem !== 0) throw new Error(`tt_load_document_streamed gave ${problem} in round ${round}`);
    if (asked < documentBytes.length / 1000) throw new Error(`the core asked for the document ${asked} times`);
  } else {
    const pointer = tt.tt_alloc(documentBytes.length);
    if (pointer <= 0) throw new Error(`tt_alloc gave ${pointer} in round ${round}`);
    new Uint8Array(memory.buffer, pointer, documentBytes.length).set(documentBytes);
    const problem = tt.tt_load_document(documentBytes.length);
    if (problem !== 0) throw new Error(`tt_load_document gave ${problem} in round ${round}`);
  }
  const state = JSON.parse(new TextDecoder().decode(new Uint8Array(memory.buffer, tt.tt_out_ptr(), tt.tt_state())));
  if (state.lines !== lines.length) throw new Error(`round ${round} opened ${state.lines} lines, not ${lines.length}`);
  for (let finger = 1; finger <= 5; finger++) {
    tt.tt_touch(finger, 0, 100 * finger, 100, round);
  }
  tt.tt_commit(round);
  for (let finger = 1; finger <= 5; finger++) tt.tt_touch(finger, 3, 100 * finger + 50, 200, round + 0.1);
  tt.tt_commit(round + 0.1);
  tt.tt_render_static(1);
  tt.tt_render_live();
  if (tt.tt_export_document() <= 0) throw new Error(`tt_export_document failed in round ${round}`);
  for (const name of ['tt_static_ptr', 'tt_live_ptr', 'tt_out_ptr', 'tt_probe_ptr']) {
    if (tt[name]() <= 0) throw new Error(`${name} gave ${tt[name]()} in round ${round}`);
  }
}

for (let round = 0; round < 20; round++) session(round);
const settled = memory.buffer.byteLength;
for (let round = 20; round < 200; round++) session(round);
const grown = memory.buffer.byteLength - settled;
console.log(JSON.stringify({ rounds: 200, memoryAfter20: settled, memoryAfter200: memory.buffer.byteLength, grownBytes: grown }));
if (grown > 4 * 1024 * 1024) {
  console.error(`reinit: the memory grew by ${grown} bytes over 180 more tt_init calls; something leaks`);
  process.exit(1);
}
