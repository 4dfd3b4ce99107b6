// Row 2 (wasm): the ten-finger trace of Benchmarks/Sources/BenchmarkSupport/
// FingerTrace.swift, computed the same way here, fed to touchtracker.wasm the
// way Web/app.js feeds it (tt_touch per finger, tt_commit per event).
//
//   node Benchmarks/wasm/touch-throughput.mjs WASM STROKES REPEATS [DOCUMENT_OUT]
//
// Prints one JSON object: updates per run and the median updates per second.
// With DOCUMENT_OUT, writes the drawing the trace made (document JSON), which
// Scripts/benchmark.sh compares with the native one (`bench-tool trace-drawing`).
import { readFileSync, writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

const [wasmPath, strokesText, repeatsText, documentOut] = process.argv.slice(2);
const strokes = Number(strokesText ?? 20);
const repeats = Number(repeatsText ?? 20);
const FINGERS = 10;
const STEPS = 100;
const PHASE = { began: 0, moved: 1, ended: 3 };

/** FingerTrace.position(stroke:finger:step:), operation for operation. */
const position = (stroke, finger, step) => [40 + 120 * finger + step * 0.75, 40 + 8 * (stroke % 10) + step * 5.5];

const events = [];
for (let stroke = 0; stroke < strokes; stroke++) {
  const start = stroke * 2.0;
  const touches = (phase, step) =>
    Array.from({ length: FINGERS }, (_, finger) => [finger + 1, phase, ...position(stroke, finger, step)]);
  events.push([start, touches(PHASE.began, 0)]);
  for (let step = 1; step <= STEPS; step++) events.push([start + step / 120, touches(PHASE.moved, step)]);
  events.push([start + (STEPS + 1) / 120, touches(PHASE.ended, STEPS)]);
}
const updates = events.reduce((sum, [, touches]) => sum + touches.length, 0);

const { instance } = await WebAssembly.instantiate(readFileSync(wasmPath), { tt: { read_input: () => -1 } });
const tt = instance.exports;

function play() {
  tt.tt_init(1280, 720);
  const start = performance.now();
  for (const [time, touches] of events) {
    for (const [id, phase, x, y] of touches) tt.tt_touch(id, phase, x, y, time);
    tt.tt_commit(time);
  }
  return (performance.now() - start) / 1000;
}

const readOut = (length) => new TextDecoder().decode(new Uint8Array(tt.memory.buffer, tt.tt_out_ptr(), length));

play(); // warm up
const rates = [];
for (let run = 0; run < repeats; run++) rates.push(updates / play());
rates.sort((a, b) => a - b);
const state = JSON.parse(readOut(tt.tt_state()));
if (state.lines !== strokes * FINGERS || state.ignoredInput !== 0) {
  console.error(`touch-throughput: the trace drew ${state.lines} lines (expected ${strokes * FINGERS}); ${state.lastError}`);
  process.exit(1);
}
if (documentOut) writeFileSync(documentOut, readOut(tt.tt_export_document()));
console.log(JSON.stringify({ updates, repeats, p50UpdatesPerSecond: rates[rates.length >> 1] }));
