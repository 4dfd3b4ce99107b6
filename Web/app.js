// TouchTracker's browser host. The Swift core (touchtracker.wasm) decides
// everything; this file forwards Pointer Events to it, draws the render lists
// it returns, and keeps the drawing saved. Exports: Sources/TouchTrackerCore/Wasm.
'use strict';

const PHASE = { began: 0, moved: 1, ended: 3, cancelled: 4 };
const STRIDE = 8; // floats per render command: [kind, a, b, c, d, width, rgb, extra]
const NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
const SAVE_DELAY_MS = 250;
const RETRY_DELAY_MS = 3000;
const KEEPALIVE_LIMIT = 60000; // browsers refuse keepalive bodies past 64 KB

const canvas = document.getElementById('canvas');
const ctx = canvas.getContext('2d');
const staticCanvas = document.createElement('canvas'); // the cached static layer
const staticCtx = staticCanvas.getContext('2d');
const toolbar = document.getElementById('toolbar');
const encoder = new TextEncoder();
const decoder = new TextDecoder();

let tt = null; // the wasm exports
let size = { width: 0, height: 0, dpr: 1 };
let staticVersion = -1;
let mustRedraw = true;
let predictedLastFrame = false;
let lastInputTime = 0;
/** Pointers down on the canvas: pointerId -> predicted position (or null). */
const pointers = new Map();

// MARK: Talking to the core

const f32 = (ptr, count) => new Float32Array(tt.memory.buffer, ptr, count);
const bytes = (ptr, count) => new Uint8Array(tt.memory.buffer, ptr, count);
const readOut = (length) => decoder.decode(bytes(tt.tt_out_ptr(), length));
const documentText = () => readOut(tt.tt_export_document());
const coreState = () => JSON.parse(readOut(tt.tt_state()));

/** Opens a document in the core; null, or the reason it was refused. */
function loadDocument(text) {
  const data = encoder.encode(text);
  const ptr = tt.tt_alloc(data.length);
  if (ptr === 0) return 'The document is too large';
  bytes(ptr, data.length).set(data);
  const result = tt.tt_load_document(data.length);
  return result === 0 ? null : readOut(result);
}

async function instantiate() {
  try {
    const { instance } = await WebAssembly.instantiateStreaming(fetch('touchtracker.wasm'), {});
    return instance.exports;
  } catch (error) {
    // Served with the wrong MIME type: compile from the bytes instead.
    const response = await fetch('touchtracker.wasm');
    if (!response.ok) throw error;
    const { instance } = await WebAssembly.instantiate(await response.arrayBuffer(), {});
    return instance.exports;
  }
}

// MARK: Canvas size

function resize() {
  const dpr = window.devicePixelRatio || 1;
  const width = document.documentElement.clientWidth;
  const height = document.documentElement.clientHeight;
  if (width === size.width && height === size.height && dpr === size.dpr) return;
  size = { width, height, dpr };
  for (const c of [canvas, staticCanvas]) {
    c.width = Math.round(width * dpr);
    c.height = Math.round(height * dpr);
  }
  tt.tt_resize(width, height);
  staticVersion = -1;
  mustRedraw = true;
}

// MARK: Input: pointers become touches, committed once per animation frame

function report(event, phase, id) {
  const rect = canvas.getBoundingClientRect();
  const time = event.timeStamp / 1000;
  lastInputTime = Math.max(lastInputTime, time);
  tt.tt_touch(id, phase, event.clientX - rect.left, event.clientY - rect.top, time);
}

function finish(event, phase) {
  if (!pointers.has(event.pointerId)) return;
  pointers.delete(event.pointerId);
  report(event, phase, event.pointerId);
}

canvas.addEventListener('pointerdown', (event) => {
  if (!tt || (event.pointerType === 'mouse' && event.button !== 0)) return;
  event.preventDefault();
  closeFileMenu();
  canvas.setPointerCapture(event.pointerId);
  pointers.set(event.pointerId, null);
  report(event, PHASE.began, event.pointerId);
});

canvas.addEventListener('pointermove', (event) => {
  if (!pointers.has(event.pointerId)) return;
  const coalesced = event.getCoalescedEvents ? event.getCoalescedEvents() : [];
  for (const e of coalesced.length ? coalesced : [event]) report(e, PHASE.moved, event.pointerId);
  // Predicted positions only draw the line's end ahead of the finger; the core never sees them.
  const predicted = event.getPredictedEvents ? event.getPredictedEvents() : [];
  const last = predicted[predicted.length - 1];
  const rect = canvas.getBoundingClientRect();
  pointers.set(event.pointerId, last ? { x: last.clientX - rect.left, y: last.clientY - rect.top } : null);
});

canvas.addEventListener('pointerup', (event) => finish(event, PHASE.ended));
canvas.addEventListener('pointercancel', (event) => finish(event, PHASE.cancelled));
canvas.addEventListener('lostpointercapture', (event) => finish(event, PHASE.cancelled));
canvas.addEventListener('contextmenu', (event) => event.preventDefault());

function cancelAllTouches() {
  pointers.clear();
  if (tt) tt.tt_cancel_all(performance.now() / 1000);
}

window.addEventListener('blur', cancelAllTouches);

// MARK: Drawing the render lists

const colors = new Map();
function cssColor(rgb) {
  let color = colors.get(rgb);
  if (!color) {
    color = '#' + (rgb | 0).toString(16).padStart(6, '0');
    colors.set(rgb, color);
  }
  return color;
}

/** Paints `count` commands; consecutive segments of one style share a path. */
function paint(c, count, floats, text) {
  let segmentStyle = null;
  c.lineCap = 'round';
  for (let i = 0; i < count * STRIDE; i += STRIDE) {
    const kind = floats[i];
    const color = cssColor(floats[i + 6]);
    if (kind === 1) {
      const style = color + floats[i + 5];
      if (style !== segmentStyle) {
        if (segmentStyle) c.stroke();
        c.beginPath();
        c.strokeStyle = color;
        c.lineWidth = floats[i + 5];
        segmentStyle = style;
      }
      c.moveTo(floats[i + 1], floats[i + 2]);
      c.lineTo(floats[i + 3], floats[i + 4]);
      continue;
    }
    if (segmentStyle) c.stroke();
    segmentStyle = null;
    if (kind === 2) {
      c.beginPath();
      c.arc(floats[i + 1], floats[i + 2], floats[i + 3], 0, 2 * Math.PI);
      c.strokeStyle = color;
      c.lineWidth = floats[i + 5];
      c.stroke();
    } else if (kind === 3) {
      c.fillStyle = color;
      const [x, y, w, h, radius] = [floats[i + 1], floats[i + 2], floats[i + 3], floats[i + 4], floats[i + 7]];
      if (radius > 0 && c.roundRect) {
        c.beginPath();
        c.roundRect(x, y, w, h, radius);
        c.fill();
      } else {
        c.fillRect(x, y, w, h);
      }
    } else if (kind === 4) {
      c.fillStyle = color;
      c.font = `${floats[i + 5]}px -apple-system, BlinkMacSystemFont, "Segoe UI", system-ui, sans-serif`;
      c.textAlign = 'center';
      c.textBaseline = 'middle';
      const start = floats[i + 3];
      c.fillText(decoder.decode(text.subarray(start, start + floats[i + 4])), floats[i + 1], floats[i + 2]);
    }
  }
  if (segmentStyle) c.stroke();
}

/** Repaints the cached static layer; when the core says only lines were added, paints just those over it. */
function paintStaticLayer(whole) {
  const count = tt.tt_render_static(whole ? 1 : 0);
  const floats = f32(tt.tt_static_ptr(), count * STRIDE);
  const text = bytes(tt.tt_static_text_ptr(), tt.tt_static_text_len());
  staticCtx.setTransform(size.dpr, 0, 0, size.dpr, 0, 0);
  if (!tt.tt_static_is_increment()) staticCtx.clearRect(0, 0, size.width, size.height);
  paint(staticCtx, count, floats, text);
}

function liveTexts() {
  const count = tt.tt_render_live();
  const floats = f32(tt.tt_live_ptr(), count * STRIDE);
  const text = bytes(tt.tt_live_text_ptr(), tt.tt_live_text_len());
  mustRedraw = true; // rendering cleared the core's needs-display flag
  const texts = [];
  for (let i = 0; i < count * STRIDE; i += STRIDE) {
    if (floats[i] !== 4) continue;
    const start = floats[i + 3];
    texts.push({ text: decoder.decode(text.subarray(start, start + floats[i + 4])), x: floats[i + 1], y: floats[i + 2] });
  }
  return texts;
}

/** The in-progress lines' ends, drawn ahead of the fingers to where the browser predicts them. */
function paintPredictions() {
  let drew = false;
  for (const [id, point] of pointers) {
    if (!point || !tt.tt_probe_line(id)) continue;
    const [x, y, width, rgb] = f32(tt.tt_probe_ptr(), 4);
    ctx.beginPath();
    ctx.moveTo(x, y);
    ctx.lineTo(point.x, point.y);
    ctx.strokeStyle = cssColor(rgb);
    ctx.lineWidth = width;
    ctx.stroke();
    drew = true;
  }
  return drew;
}

function draw() {
  const version = tt.tt_static_version();
  if (version !== staticVersion) {
    const whole = staticVersion === -1; // the cached canvas was cleared (resize, new document)
    staticVersion = version;
    paintStaticLayer(whole);
    mustRedraw = true;
  }
  const predicting = [...pointers.values()].some((p) => p);
  if (!mustRedraw && !tt.tt_needs_display() && !predicting && !predictedLastFrame) return;
  mustRedraw = false;
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.drawImage(staticCanvas, 0, 0);
  ctx.setTransform(size.dpr, 0, 0, size.dpr, 0, 0);
  const count = tt.tt_render_live();
  paint(ctx, count, f32(tt.tt_live_ptr(), count * STRIDE), bytes(tt.tt_live_text_ptr(), tt.tt_live_text_len()));
  predictedLastFrame = paintPredictions();
}

function frame(ms) {
  try {
    resize();
    tt.tt_commit(lastInputTime);
    tt.tt_tick(ms / 1000);
    draw();
    afterFrame();
  } catch (error) {
    // A trap leaves the core in no state to go on; the drawing is in localStorage up to the last change.
    showBanner(`TouchTracker stopped: ${error.message}`, 'warning', [['Reload', () => location.reload()]]);
    throw error;
  }
  requestAnimationFrame(frame);
}

// MARK: Toolbar and keyboard

let toolbarKey = '';
function refreshToolbar(force) {
  const key = `${tt.tt_change_count()} ${tt.tt_palette_visible()} ${saver.dirty()} ${saver.name}`;
  if (!force && key === toolbarKey) return;
  toolbarKey = key;
  const state = coreState();
  toolbar.querySelector('[data-command="undo"]').disabled = !state.canUndo;
  toolbar.querySelector('[data-command="redo"]').disabled = !state.canRedo;
  toolbar.querySelector('[data-toggle="angle"]').setAttribute('aria-pressed', state.colorsByAngle);
  toolbar.querySelector('[data-toggle="speed"]').setAttribute('aria-pressed', state.widthsBySpeed);
  toolbar.querySelector('[data-command="palette"]').setAttribute('aria-pressed', state.paletteVisible);
  const label = document.getElementById('drawing-name');
  label.textContent = saver.name;
  label.title = saver.name;
  label.classList.toggle('unsaved', saver.dirty());
}

const commands = {
  palette: () => (tt.tt_palette_visible() ? tt.tt_hide_palette() : tt.tt_show_palette()),
  undo: () => tt.tt_undo(),
  redo: () => tt.tt_redo(),
  angle: () => tt.tt_set_colors_by_angle(tt.tt_colors_by_angle() ? 0 : 1),
  speed: () => tt.tt_set_widths_by_speed(tt.tt_widths_by_speed() ? 0 : 1),
  png: exportPNG,
  svg: exportSVG,
  new: newDrawing,
};

toolbar.addEventListener('click', (event) => {
  const button = event.target.closest('button[data-command], button[data-toggle]');
  if (!button || !tt) return;
  commands[button.dataset.command || button.dataset.toggle]();
  if (button.closest('.menu')) closeFileMenu();
  refreshToolbar(true);
});

document.addEventListener('keydown', (event) => {
  if (!tt || event.target.closest?.('input, textarea')) return;
  const key = event.key.toLowerCase();
  if ((event.metaKey || event.ctrlKey) && key === 'z') {
    event.shiftKey ? tt.tt_redo() : tt.tt_undo();
  } else if ((event.metaKey || event.ctrlKey) && key === 'y') {
    tt.tt_redo();
  } else if (key === 'delete' || key === 'backspace') {
    tt.tt_delete_selected();
  } else if (key === 'escape') {
    if (!closeFileMenu()) {
      tt.tt_deselect();
      tt.tt_hide_palette();
    }
  } else {
    return;
  }
  event.preventDefault();
  refreshToolbar(true);
});

function closeFileMenu() {
  const menu = document.getElementById('file-menu');
  const wasOpen = menu.open;
  menu.open = false;
  return wasOpen;
}

document.getElementById('file-menu').addEventListener('toggle', (event) => {
  if (event.target.open) listDrawings();
});

async function listDrawings() {
  const list = document.getElementById('drawing-list');
  const note = (text) => {
    list.innerHTML = '';
    const item = document.createElement('li');
    item.className = 'menu-note';
    item.textContent = text;
    list.append(item);
  };
  try {
    const response = await fetch('/api/drawings', { cache: 'no-store' });
    if (!response.ok) throw new Error(response.statusText);
    const drawings = await response.json();
    if (!drawings.length) return note('No saved drawings yet');
    list.innerHTML = '';
    for (const drawing of drawings) {
      const link = document.createElement('a');
      link.href = '?drawing=' + encodeURIComponent(drawing.name);
      if (drawing.name === saver.name) link.setAttribute('aria-current', 'page');
      link.textContent = drawing.name;
      const lines = drawing.lines ?? drawing.lineCount ?? 0;
      const circles = drawing.circles ?? drawing.circleCount ?? 0;
      const when = drawing.updatedAt ? new Date(drawing.updatedAt).toLocaleString() : '';
      const details = document.createElement('small');
      details.textContent = `${lines} line${lines === 1 ? '' : 's'}, ${circles} circle${circles === 1 ? '' : 's'}` +
        (when ? ` · ${when}` : '');
      link.append(details);
      const item = document.createElement('li');
      item.append(link);
      list.append(item);
    }
  } catch {
    note('The server is unreachable');
  }
}

function download(blob, filename) {
  const link = document.createElement('a');
  link.href = URL.createObjectURL(blob);
  link.download = filename;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 10000);
}

function exportPNG() {
  staticCanvas.toBlob((blob) => download(blob, `${saver.name}.png`), 'image/png');
}

function exportSVG() {
  const svg = readOut(tt.tt_export_svg());
  download(new Blob([svg], { type: 'image/svg+xml' }), `${saver.name}.svg`);
}

async function newDrawing() {
  const stamp = new Date().toISOString().slice(0, 16).replace(/[-:]/g, '').replace('T', '-');
  const name = window.prompt('Name of the new drawing (letters, digits, - and _):', `drawing-${stamp}`);
  if (name === null) return;
  if (!NAME_PATTERN.test(name)) {
    showBanner(`“${name}” is not a valid name: use 1–64 letters, digits, - or _.`, 'warning', [['OK', hideBanner]]);
    return;
  }
  await saver.flush();
  location.assign('?drawing=' + encodeURIComponent(name));
}

// MARK: Messages

function showBanner(text, kind, actions = []) {
  const banner = document.getElementById('banner');
  document.getElementById('banner-text').textContent = text;
  const box = document.getElementById('banner-actions');
  box.innerHTML = '';
  for (const [title, action] of actions) {
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = title;
    button.addEventListener('click', action);
    box.append(button);
  }
  banner.className = kind || '';
  banner.hidden = false;
}

function hideBanner() {
  document.getElementById('banner').hidden = true;
}

// MARK: Saving
//
// Every finished change goes to localStorage at once and to the server
// within SAVE_DELAY_MS, with If-Match naming the revision it builds on.
// A 409 stops saving and asks: nothing either side wrote is thrown away
// unless the person says so. Unreachable server: keep trying; the copy in
// localStorage survives a closed tab and is offered again on the next visit.

const saver = {
  name: 'default',
  /** The server revision the drawing builds on: 0 for none yet, null when unknown (offline). */
  revision: null,
  savedChange: 0, // tt_change_count() when the server last had the drawing
  inFlight: null,
  timer: null,
  /** Why saving stopped until the person decides: 'conflict' (409) or 'refused' (another 4xx). */
  stopped: null,
  offline: false,

  url(name = this.name) {
    return '/api/drawings/' + encodeURIComponent(name);
  },
  localKey(name = this.name) {
    return 'touchtracker:drawing:' + name;
  },
  dirty() {
    return tt.tt_change_count() !== this.savedChange;
  },
  readLocal() {
    try {
      return JSON.parse(localStorage.getItem(this.localKey()));
    } catch {
      return null;
    }
  },
  writeLocal(text, dirty) {
    try {
      localStorage.setItem(this.localKey(), JSON.stringify({ document: text, revision: this.revision, dirty }));
    } catch {
      // Full or disabled storage: the server copy is all there is.
    }
  },

  /** Opens the drawing: the server's copy, or this browser's unsaved one. */
  async open(name) {
    this.name = name;
    const local = this.readLocal();
    let response;
    try {
      response = await fetch(this.url(), { cache: 'no-store' });
    } catch {
      response = null;
    }
    if (response && response.ok) {
      const text = await response.text();
      const revision = revisionOf(response);
      if (local?.dirty && local.document !== text) {
        this.load(local.document, local.revision);
        if (local.revision === revision) this.markChanged();
        else this.showConflict(revision);
        return;
      }
      this.load(text, revision);
      this.writeLocal(text, false);
      this.setOffline(false);
    } else if (response && response.status === 404) {
      this.load(local?.dirty ? local.document : null, 0);
      if (local?.dirty) this.markChanged();
      this.setOffline(false);
    } else {
      // Unreachable or failing: show what this browser has and save it when the server is back.
      if (local) this.load(local.document, local.revision);
      if (local?.dirty) this.markChanged();
      else this.revision = null; // unknown until the server answers; then its copy is opened
      this.setOffline(true, !response);
      this.schedule(RETRY_DELAY_MS);
    }
  },

  load(text, revision) {
    const problem = text === null ? null : loadDocument(text);
    if (problem) showBanner(`Could not open “${this.name}”: ${problem}`, 'warning', [['OK', hideBanner]]);
    this.revision = revision;
    this.savedChange = tt.tt_change_count();
  },

  /** The drawing differs from the server's even though the core's change count did not move. */
  markChanged() {
    this.savedChange = -1;
    this.schedule();
  },

  schedule(delay = SAVE_DELAY_MS) {
    if (this.timer || this.stopped) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.save();
    }, delay);
  },

  /** Saves now if needed; resolves when the save (or the one in flight) is done. */
  async flush() {
    clearTimeout(this.timer);
    this.timer = null;
    while (this.inFlight) await this.inFlight;
    if (this.dirty() || this.revision === null) await this.save();
  },

  save() {
    if (this.inFlight || this.stopped) return this.inFlight;
    let work;
    if (this.dirty()) work = this.put();
    else if (this.revision === null) work = this.open(this.name); // opened offline: fetch the server's copy
    else return null;
    this.inFlight = work.finally(() => {
      this.inFlight = null;
      if (this.dirty() && !this.stopped) this.schedule(this.offline ? RETRY_DELAY_MS : SAVE_DELAY_MS);
    });
    return this.inFlight;
  },

  async put() {
    const change = tt.tt_change_count();
    const text = documentText();
    this.writeLocal(text, true);
    try {
      if (this.revision === null && !(await this.learnRevision(text))) return;
      const response = await fetch(this.url(), {
        method: 'PUT',
        headers: { 'Content-Type': 'application/json', 'If-Match': `"${this.revision}"` },
        body: text,
      });
      if (response.ok) {
        const body = await response.json().catch(() => ({}));
        this.revision = body.revision ?? revisionOf(response);
        this.savedChange = change;
        // Changes made meanwhile are already in localStorage; keep them, on the new revision.
        this.writeLocal(this.dirty() ? documentText() : text, this.dirty());
        this.setOffline(false);
      } else if (response.status === 409 || response.status === 412) {
        const body = await response.json().catch(() => ({}));
        this.showConflict(body.revision);
      } else if (response.status >= 500) {
        this.setOffline(true, false);
      } else {
        const body = await response.json().catch(() => ({}));
        this.stopped = 'refused'; // retrying would be refused again
        showBanner(`Could not save “${this.name}”: ${body.error || response.statusText}. It is kept in this browser.`,
          'warning', [['Save as a copy', () => this.saveAsCopy()]]);
      }
    } catch {
      this.setOffline(true, true);
    }
  },

  /**
   * Started without the server: find out what it has before writing over it.
   * True when saving may go on.
   */
  async learnRevision(text) {
    const response = await fetch(this.url(), { cache: 'no-store' });
    if (response.status === 404) {
      this.revision = 0;
      return true;
    }
    if (!response.ok) throw new Error(response.statusText);
    const revision = revisionOf(response);
    if ((await response.text()) === text) {
      this.revision = revision;
      this.savedChange = tt.tt_change_count();
      return false;
    }
    this.showConflict(revision);
    return false;
  },

  setOffline(offline, unreachable) {
    const changed = this.offline !== offline;
    this.offline = offline;
    if (offline) {
      showBanner(unreachable ? 'Offline — saved in this browser' : 'The server had a problem — saved in this browser');
    } else if (changed) {
      hideBanner();
    }
  },

  showConflict(theirRevision) {
    this.stopped = 'conflict';
    clearTimeout(this.timer);
    this.timer = null;
    showBanner(
      `“${this.name}” was changed somewhere else (revision ${theirRevision ?? '?'}). Your version is kept here.`,
      'warning',
      [
        ['Save mine as a copy', () => this.saveAsCopy()],
        ['Discard mine, open theirs', () => this.openTheirs()],
      ],
    );
  },

  async saveAsCopy() {
    const base = this.name.slice(0, 50);
    const stamp = new Date().toISOString().slice(5, 19).replace(/[-:]/g, '').replace('T', '-');
    const oldKey = this.localKey();
    this.name = `${base}-${stamp}`;
    this.revision = 0;
    this.stopped = null;
    this.markChanged();
    history.replaceState(null, '', '?drawing=' + encodeURIComponent(this.name));
    hideBanner();
    await this.save();
    if (!this.dirty()) {
      localStorage.removeItem(oldKey);
      showBanner(`Saved your version as “${this.name}”.`, '', [['OK', hideBanner]]);
    }
  },

  async openTheirs() {
    this.stopped = null;
    hideBanner();
    localStorage.removeItem(this.localKey());
    await this.open(this.name);
  },

  /** The page is going away: last chance for the server; localStorage has it anyway. */
  onPageHide() {
    if (!this.dirty() || this.stopped || this.revision === null) return;
    const text = documentText();
    this.writeLocal(text, true);
    if (this.inFlight || text.length > KEEPALIVE_LIMIT) return;
    fetch(this.url(), {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json', 'If-Match': `"${this.revision}"` },
      body: text,
      keepalive: true,
    }).catch(() => {});
  },
};

function revisionOf(response) {
  const match = /(\d+)/.exec(response.headers.get('ETag') || response.headers.get('X-Revision') || '');
  return match ? Number(match[1]) : null;
}

let lastChange = 0;
function afterFrame() {
  const change = tt.tt_change_count();
  if (change !== lastChange) {
    lastChange = change;
    saver.writeLocal(documentText(), saver.dirty());
    saver.schedule();
  }
  refreshToolbar(false);
}

window.addEventListener('pagehide', () => {
  cancelAllTouches();
  saver.onPageHide();
});
document.addEventListener('visibilitychange', () => {
  if (document.visibilityState !== 'hidden') return;
  cancelAllTouches();
  saver.save();
});
window.addEventListener('online', () => saver.offline && saver.save());

// MARK: Start

async function start() {
  tt = await instantiate();
  const params = new URLSearchParams(location.search);
  const name = params.get('drawing') || 'default';
  tt.tt_init(document.documentElement.clientWidth, document.documentElement.clientHeight);
  if (!tt.tt_export_svg) toolbar.querySelector('[data-command="svg"]').hidden = true;
  resize();
  if (NAME_PATTERN.test(name)) {
    await saver.open(name);
  } else {
    saver.name = 'default';
    showBanner(`“${name}” is not a drawing name (1–64 letters, digits, - or _).`, 'warning', [['OK', hideBanner]]);
    await saver.open('default');
  }
  lastChange = tt.tt_change_count();
  refreshToolbar(true);
  requestAnimationFrame(frame);
}

/** For tests and the curious: `await touchtracker.ready; touchtracker.state()`. */
window.touchtracker = {
  ready: start().catch((error) => {
    showBanner(`TouchTracker could not start: ${error.message}`, 'warning');
    throw error;
  }),
  state: () => coreState(),
  document: () => JSON.parse(documentText()),
  /** Text on screen (menu items, palette buttons) and where it is centered. */
  texts: () => liveTexts(),
  loadDocument: (text) => loadDocument(text),
  core: () => tt,
  save: () => saver.flush(),
  saving: () => ({
    name: saver.name,
    revision: saver.revision,
    dirty: saver.dirty(),
    offline: saver.offline,
    conflict: saver.stopped === 'conflict',
    stopped: saver.stopped,
  }),
};
