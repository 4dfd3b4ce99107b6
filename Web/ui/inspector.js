// The inspector: what the core's event machinery did, live. The
// core reports typed records (Responders/Diagnostics.swift) only while the
// inspector is on (`tt_inspect`); each frame this module takes them
// (`tt_take_records`, JSON lines) and shows the touches with the view they
// hit, the event-order log of the book, every recognizer's states with the
// reason for each change, touches held back and released or dropped, the
// responder chain each action walked, and the first responder.
// Off by default: then the core reports nothing and this module does nothing.

import { readOut, tt } from '../core/bridge.js';
import { PHASE_NAMES, pointerPhases, pointerTypes } from '../input/pointers.js';
import { attachLog, nextLogNumber, recordText, renderLog } from './inspector-log.js';

export { recordText };

// The log keeps the last LOG_LIMIT rows (a few hundred gestures; older rows
// leave from the top), the records for tests the last RECORDS_KEPT.
const LOG_LIMIT = 5000;
const RECORDS_KEPT = 2000;
const GESTURES_KEPT = 6;
const ACTIONS_KEPT = 8;

const panel = document.getElementById('inspector');
const els = {};

/** Everything shown, rebuilt from the records (`reset` empties it). */
const model = {
  on: false,
  records: [],
  log: [],
  touches: new Map(),
  recognizers: new Map(),
  held: new Map(),
  heldHistory: [],
  actions: [],
  firstResponder: 'DrawView',
};
let dirty = false;

export const inspectorOn = () => model.on;

/** Turns the inspector on or off (the toolbar button, the `i` key). */
export function toggleInspector(on = !model.on) {
  if (!tt?.tt_inspect) return;
  model.on = on;
  tt.tt_inspect(on ? 1 : 0);
  panel.hidden = !on;
  document.body.classList.toggle('inspecting', on);
  for (const control of document.querySelectorAll('[data-command="inspector"]')) {
    control.setAttribute(control.getAttribute('role') === 'menuitemcheckbox' ? 'aria-checked' : 'aria-pressed', String(on));
  }
  if (on) {
    reset();
    render();
  }
}

/** Forgets what was shown (a playback starting over). */
export function reset() {
  model.records = [];
  model.log = [];
  model.touches.clear();
  model.recognizers.clear();
  model.held.clear();
  model.heldHistory = [];
  model.actions = [];
  dirty = true;
}

/** Once a frame, after the core ran: takes its records and shows them. */
export function inspectorFrame() {
  if (!model.on) return;
  const length = tt.tt_take_records();
  if (length > 0) {
    for (const line of readOut(length).split('\n')) {
      if (line) take(JSON.parse(line));
    }
  }
  if (dirty) render();
}

/** The inspector's model, for tests: the records so far and what the panel shows. */
export function inspectorState() {
  return {
    on: model.on,
    records: model.records.slice(),
    log: model.log.map((entry) => entry.text),
    touches: [...model.touches.values()],
    recognizers: Object.fromEntries([...model.recognizers].map(([name, r]) => [name, r.gestures])),
    held: [...model.held.values()],
    heldHistory: model.heldHistory.slice(),
    actions: model.actions.slice(),
    firstResponder: model.firstResponder,
  };
}

function take(r) {
  dirty = true;
  model.records.push(r);
  if (model.records.length > RECORDS_KEPT) model.records.splice(0, model.records.length - RECORDS_KEPT);
  model.log.push({ kind: r.kind, t: r.t, text: recordText(r), number: nextLogNumber() });
  if (model.log.length > LOG_LIMIT) model.log.splice(0, model.log.length - LOG_LIMIT);
  switch (r.kind) {
    case 'hit': {
      const t = r.touch;
      if (firstOfItsGesture(t.id)) startOver();
      model.touches.set(t.id, {
        id: t.id, type: pointerTypes.get(t.id) ?? 'touch', phase: t.phase, tapCount: t.tapCount,
        view: r.path[r.path.length - 1], path: r.path.join(' > '), ignored: r.ignored, x: t.x, y: t.y,
      });
      break;
    }
    case 'message':
      for (const t of r.touches) {
        const touch = model.touches.get(t.id);
        if (touch) Object.assign(touch, { phase: t.phase, x: t.x, y: t.y, tapCount: t.tapCount });
      }
      break;
    case 'state': {
      let recognizer = model.recognizers.get(r.recognizer);
      if (!recognizer) model.recognizers.set(r.recognizer, (recognizer = { gestures: [] }));
      if (r.to === 'possible') break; // a reset: the next change starts a new gesture
      let gesture = recognizer.gestures[recognizer.gestures.length - 1];
      if (!gesture || gesture.done) {
        gesture = { t: r.t, steps: [{ state: 'possible', cause: '' }], done: false };
        recognizer.gestures.push(gesture);
        if (recognizer.gestures.length > GESTURES_KEPT) recognizer.gestures.shift();
      }
      const last = gesture.steps[gesture.steps.length - 1];
      if (r.to === 'changed' && last.state === 'changed') {
        last.count = (last.count ?? 1) + 1;
      } else {
        gesture.steps.push({ state: r.to, cause: r.cause, t: r.t });
      }
      gesture.done = ['ended', 'failed', 'cancelled'].includes(r.to);
      break;
    }
    case 'wait': {
      let recognizer = model.recognizers.get(r.recognizer);
      if (!recognizer) model.recognizers.set(r.recognizer, (recognizer = { gestures: [] }));
      let gesture = recognizer.gestures[recognizer.gestures.length - 1];
      if (!gesture || gesture.done) {
        gesture = { t: r.t, steps: [{ state: 'possible', cause: '' }], done: false };
        recognizer.gestures.push(gesture);
      }
      gesture.steps.push({ state: 'waiting', cause: `for ${r.for.join(', ')} to fail`, t: r.t });
      break;
    }
    case 'held':
      setPhase(r.touch, r.phase);
      model.held.set(`${r.touch} ${r.phase}`, { touch: r.touch, phase: r.phase, by: r.by, t: r.t });
      model.heldHistory.push({ touch: r.touch, phase: r.phase, what: `held by ${r.by}`, t: r.t });
      break;
    case 'released':
    case 'dropped':
      setPhase(r.touch, r.phase);
      model.held.delete(`${r.touch} ${r.phase}`);
      model.heldHistory.push({ touch: r.touch, phase: r.phase, what: r.kind, t: r.t });
      break;
    case 'action':
      model.actions.push(r);
      if (model.actions.length > ACTIONS_KEPT) model.actions.shift();
      break;
    case 'firstResponder':
      model.firstResponder = r.to ?? 'none';
      break;
  }
  if (model.heldHistory.length > 20) model.heldHistory.shift();
}

/** Whether touch `id` is the first finger down since every finger before it lifted (the page's own phases). */
function firstOfItsGesture(id) {
  for (const other of model.touches.keys()) {
    if (other === id) continue;
    const phase = PHASE_NAMES[pointerPhases.get(other)] ?? model.touches.get(other).phase;
    if (RANK[phase] < 2) return false;
  }
  return true;
}

/** A new gesture: each recognizer's row shows it from "possible", not the last gesture's steps. */
function startOver() {
  for (const recognizer of model.recognizers.values()) {
    const last = recognizer.gestures[recognizer.gestures.length - 1];
    if (!last?.done) continue;
    recognizer.gestures.push({ t: undefined, steps: [{ state: 'possible', cause: '' }], done: false });
    if (recognizer.gestures.length > GESTURES_KEPT) recognizer.gestures.shift();
  }
}

/** A touch's phase as it happened, even when its view never heard of it (held back, dropped). */
function setPhase(id, phase) {
  const touch = model.touches.get(id);
  if (touch && RANK[phase] >= RANK[touch.phase]) touch.phase = phase;
}
const RANK = { began: 0, moved: 1, stationary: 1, ended: 2, cancelled: 2 };

// MARK: The panel

const h = (tag, className, text) => {
  const element = document.createElement(tag);
  if (className) element.className = className;
  if (text !== undefined) element.textContent = text;
  return element;
};

function render() {
  dirty = false;
  if (!model.on) return;
  renderTouches();
  renderRecognizers();
  renderHeld();
  renderActions();
  els.first.textContent = model.firstResponder;
  renderLog(model.log);
}

function renderTouches() {
  const rows = [...model.touches.values()].slice(-10).reverse();
  els.touches.replaceChildren(
    ...(rows.length
      ? rows.map((t) => {
          const row = h('tr');
          row.dataset.touch = t.id;
          // The phase the core last showed, or the page's own when that is later (a touch a
          // recognizer took never reaches the view, so no record carries its end).
          const reported = PHASE_NAMES[pointerPhases.get(t.id)];
          const phase = reported && RANK[reported] > RANK[t.phase] ? reported : t.phase;
          for (const value of [t.id, t.type, phase, t.tapCount, t.view + (t.ignored ? ' (ignored)' : '')]) {
            row.append(h('td', '', String(value)));
          }
          row.title = `hit-test path: ${t.path}`;
          const path = h('tr', 'path');
          const cell = h('td', '', t.path);
          cell.colSpan = 5;
          path.append(cell);
          return [row, path];
        }).flat()
      : [emptyRow(5, 'No touches yet: draw on the canvas.')]),
  );
}

function emptyRow(span, text) {
  const row = h('tr', 'empty');
  const cell = h('td', '', text);
  cell.colSpan = span;
  row.append(cell);
  return row;
}

function renderRecognizers() {
  const order = ['double tap', 'tap', 'long press', 'pan', 'three-finger swipe'];
  const names = [...new Set([...order, ...model.recognizers.keys()])];
  els.recognizers.replaceChildren(
    ...names.map((name) => {
      const item = h('li');
      item.dataset.recognizer = name;
      item.append(h('span', 'name', name));
      const gestures = model.recognizers.get(name)?.gestures ?? [];
      const timeline = h('ol', 'timeline');
      const last = gestures[gestures.length - 1];
      if (!last) timeline.append(h('li', 'state possible', 'possible'));
      else {
        for (const step of last.steps) {
          const chip = h('li', `state ${step.state}`, step.state + (step.count ? ` ×${step.count}` : ''));
          if (step.cause) chip.append(h('span', 'cause', step.cause));
          if (step.t !== undefined) chip.title = `at ${step.t.toFixed(3)} s`;
          timeline.append(chip);
        }
      }
      item.append(timeline);
      return item;
    }),
  );
}

function renderHeld() {
  const now = [...model.held.values()].map((held) => h('li', 'held-now', `touch ${held.touch} ${held.phase} held by ${held.by}`));
  const past = model.heldHistory.slice(-6).reverse().map((e) => h('li', '', `touch ${e.touch} ${e.phase} ${e.what}`));
  els.held.replaceChildren(...now, ...past);
  if (!now.length && !past.length) els.held.append(h('li', 'empty', 'Nothing held back.'));
}

function renderActions() {
  const items = model.actions.slice().reverse().map((a) => {
    const item = h('li');
    item.append(h('span', 'action', a.action), h('span', 'sender', ` from ${a.sender}`));
    const chain = h('ol', 'chain');
    for (const name of a.asked) chain.append(h('li', name === a.handler ? 'handler' : '', name));
    if (!a.handler) chain.append(h('li', 'nobody', 'nobody'));
    item.append(chain);
    return item;
  });
  els.actions.replaceChildren(...items);
  if (!items.length) els.actions.append(h('li', 'empty', 'No actions yet.'));
}

export function attachInspector() {
  if (!panel) return;
  for (const name of ['touches', 'recognizers', 'held', 'actions', 'first', 'log', 'filter', 'kind']) {
    els[name] = panel.querySelector(`[data-inspector="${name}"]`);
  }
  attachLog(els, () => model.log);
  panel.querySelector('[data-inspector="close"]').addEventListener('click', () => toggleInspector(false));
  if (!tt?.tt_inspect) {
    for (const control of document.querySelectorAll('[data-command="inspector"]')) control.hidden = true;
  }
  if (new URLSearchParams(location.search).get('inspector') === 'on') toggleInspector(true);
}
