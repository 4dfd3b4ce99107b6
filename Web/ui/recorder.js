// The recorder and time travel, in the inspector panel. Record
// writes down everything the page feeds the core from now on (the core does
// it: Host/PageHost+Recording.swift) and offers it as a trace file that
// `touchtracker replay` plays to the same drawing, byte for byte. A trace,
// recorded here or loaded from a file, plays back in the page at 0.1x-4x,
// event by event, or from any point of the scrubber; the drawing and the
// inspector follow it exactly as they followed the live session.
//
// A playback shows the recording, not the drawing: saving and the live
// connection stop first (what was drawn is saved), and leaving the playback
// opens the drawing again.

import { readOut, startTrace, tt } from '../core/bridge.js';
import { invalidateStaticLayer } from '../paint/canvas.js';
import { live } from '../sync/live.js';
import { saver } from '../sync/saver.js';
import { download, hideBanner } from './banner.js';
import { reset as resetInspector } from './inspector.js';

const SPEEDS = [0.1, 0.25, 0.5, 1, 2, 4];

const els = {};
const playback = {
  on: false,
  playing: false,
  speed: 1,
  /** The trace's clock: where the playback is, and its first and last events. */
  position: 0,
  start: 0,
  end: 0,
  events: 0,
  next: 0,
  /** The core's own position in the trace (`tt_play_state`'s `now`). */
  now: 0,
  lastMs: null,
};
let lastTrace = null;

export const isPlayingBack = () => playback.on;

/** For tests: the recorder's and the playback's state. */
export function recorderState() {
  return {
    recording: tt?.tt_recording?.() === 1,
    trace: lastTrace,
    playback: { ...playback },
    status: els.status?.textContent ?? '',
  };
}

function setStatus(text) {
  els.status.textContent = text;
}

/** Starts or stops recording; stopping offers the trace as a download. */
export function toggleRecording() {
  if (playback.on) return;
  if (tt.tt_recording() !== 1) {
    tt.tt_record(1);
    lastTrace = null;
    els.record.textContent = '■ Stop';
    els.record.setAttribute('aria-pressed', 'true');
    els.save.hidden = true;
    els.replay.hidden = true;
    setStatus('Recording. Undo goes back no further than here.');
    return;
  }
  const length = tt.tt_record(0);
  els.record.textContent = '● Record';
  els.record.setAttribute('aria-pressed', 'false');
  if (length <= 0) {
    setStatus(length < 0 ? 'The recording does not fit in memory.' : 'Nothing was recorded.');
    return;
  }
  lastTrace = readOut(length);
  const events = (lastTrace.match(/"time":/g) || []).length;
  els.save.hidden = false;
  els.replay.hidden = false;
  setStatus(`Recorded ${events} events. Save the trace, or play it back here.`);
}

function traceName() {
  const stamp = new Date().toISOString().slice(0, 19).replace(/[:T]/g, '-');
  return `touchtracker-${saver.name}-${stamp}.trace.json`;
}

/** Plays `text` (a trace) instead of the drawing; the reason when refused. */
export async function startPlayback(text) {
  // The drawing on its way would replace the playback once opened (and saving would open it again).
  if (saver.opening) return fail('The drawing is still opening: play the trace once it is on screen.');
  if (tt.tt_recording() === 1) toggleRecording();
  // What was drawn is saved (or kept in this browser) before the playback takes the screen.
  await saver.flush().catch(() => {});
  // The playback replaces the drawing in the core until the page reloads it: only from a copy.
  if (saver.stopped) return fail('Saving is stopped (see the message below): download the drawing before playing a trace.');
  if (saver.dirty() && saver.local !== 'saved') {
    return fail('This drawing is not saved anywhere yet: let it save (or download it) before playing a trace.');
  }
  const problem = startTrace(text);
  if (problem) return fail(`Cannot play this trace: ${problem}`);
  clearTimeout(saver.timer);
  saver.timer = null;
  saver.stopped = 'playback';
  hideBanner(); // its buttons act on the drawing, which is not on the screen now
  live.pause();
  Object.assign(playback, { on: true, playing: false, lastMs: null });
  readPosition();
  playback.position = playback.start;
  document.body.classList.add('playing-back');
  els.playback.hidden = false;
  els.record.disabled = true;
  els.scrub.min = String(playback.start);
  els.scrub.max = String(Math.max(playback.end, playback.start + 0.001));
  resetInspector();
  invalidateStaticLayer();
  setStatus(`Playing back ${playback.events} events. The drawing comes back when you leave.`);
  showPosition();
  return null;
}

function fail(message) {
  setStatus(message);
  return message;
}

function readPosition() {
  const length = tt.tt_play_state();
  if (length <= 0) return;
  const state = JSON.parse(readOut(length));
  playback.start = state.start;
  playback.end = state.end;
  playback.events = state.events;
  playback.next = state.next;
  playback.now = state.now;
}

function showPosition() {
  els.scrub.value = String(playback.position);
  els.time.textContent = `${(playback.position - playback.start).toFixed(2)} / ${(playback.end - playback.start).toFixed(2)} s · event ${playback.next} of ${playback.events}`;
  els.play.textContent = playback.playing ? 'Pause' : 'Play';
  els.play.setAttribute('aria-pressed', String(playback.playing));
}

/** Plays the trace through `time` (back: the core starts it over). */
export function seek(time) {
  if (!playback.on) return;
  const target = Math.min(Math.max(time, playback.start), playback.end);
  const before = playback.next;
  const played = tt.tt_play_to(target);
  if (played < 0) {
    playback.playing = false;
    setStatus(`The playback stopped: ${JSON.parse(readOut(tt.tt_state())).lastError}`);
  }
  playback.position = target;
  readPosition();
  if (playback.next < before) {
    // The core started the trace over (scrubbing back): the inspector and the painting do too.
    resetInspector();
    invalidateStaticLayer();
  }
  showPosition();
}

/** Plays the next event. */
export function step() {
  if (!playback.on) return;
  playback.playing = false;
  if (tt.tt_play_step() < 0) setStatus(`The playback stopped: ${JSON.parse(readOut(tt.tt_state())).lastError}`);
  readPosition();
  playback.position = Math.max(playback.position, playback.now);
  showPosition();
}

export function togglePlaying() {
  if (!playback.on) return;
  if (!playback.playing && playback.position >= playback.end) seek(playback.start);
  playback.playing = !playback.playing;
  playback.lastMs = null;
  showPosition();
}

/** Once a frame, before painting: a playing trace moves on by the time that passed, times the speed. */
export function recorderFrame(ms) {
  if (!playback.on || !playback.playing) return;
  const elapsed = playback.lastMs === null ? 0 : (ms - playback.lastMs) / 1000;
  playback.lastMs = ms;
  seek(playback.position + elapsed * playback.speed);
  if (playback.position >= playback.end) {
    playback.playing = false;
    showPosition();
  }
}

export function attachRecorder() {
  const panel = document.getElementById('inspector');
  if (!panel || !tt?.tt_record) return;
  for (const name of ['record', 'save', 'replay', 'file', 'playback', 'play', 'step', 'speed', 'scrub', 'time', 'leave', 'status']) {
    els[name] = panel.querySelector(`[data-recorder="${name}"]`);
  }
  els.speed.replaceChildren(
    ...SPEEDS.map((speed) => {
      const option = document.createElement('option');
      option.value = String(speed);
      option.textContent = `${speed}×`;
      option.selected = speed === 1;
      return option;
    }),
  );
  els.record.addEventListener('click', toggleRecording);
  els.save.addEventListener('click', () => {
    if (lastTrace) download(new Blob([lastTrace], { type: 'application/json' }), traceName());
  });
  els.replay.addEventListener('click', () => lastTrace && startPlayback(lastTrace));
  els.file.addEventListener('change', async () => {
    const file = els.file.files[0];
    els.file.value = '';
    if (file) await startPlayback(await file.text());
  });
  els.play.addEventListener('click', togglePlaying);
  els.step.addEventListener('click', step);
  els.speed.addEventListener('change', () => {
    playback.speed = Number(els.speed.value);
  });
  els.scrub.addEventListener('input', () => {
    playback.playing = false;
    seek(Number(els.scrub.value));
  });
  // The page's own drawing, as saved: opened again from scratch.
  els.leave.addEventListener('click', () => location.reload());
}
