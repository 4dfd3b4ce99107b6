// The "⋯" menu: new drawing, exports, and the saved drawings, newest first,
// each with a thumbnail (GET .../thumbnail, cached by revision), which can be
// opened, renamed, duplicated or deleted, and a field that filters them by
// name. Names are asked for in the page's own dialog (ui/dialog.js), never
// with prompt().

import { NAME_PATTERN, svgText } from '../core/bridge.js';
import { pngOfSVG } from '../paint/export.js';
import { access } from '../server/access.js';
import { EMPTY_DOCUMENT, api } from '../server/api.js';
import { saver } from '../sync/saver.js';
import { download, hideBanner, showBanner } from './banner.js';
import { ask, askName } from './dialog.js';
import { showNotice } from './notice.js';

const menu = document.getElementById('file-menu');
const filter = document.getElementById('drawing-filter');
/** The names the last list held, to say "already exists" before asking the server. */
let known = new Set();

/** Closes the menu; true if it was open. */
export function closeFileMenu() {
  const wasOpen = menu.open;
  menu.open = false;
  return wasOpen;
}

menu.addEventListener('toggle', () => {
  if (menu.open) listDrawings();
});

const openURL = (name) => '?drawing=' + encodeURIComponent(name);

/** Newest first: the one changed last is the one most likely wanted again. */
export function newestFirst(drawings) {
  const time = (drawing) => Date.parse(drawing.updatedAt ?? '') || 0;
  return [...drawings].sort((a, b) => time(b) - time(a) || a.name.localeCompare(b.name));
}

async function listDrawings() {
  const list = document.getElementById('drawing-list');
  const note = (text) => {
    const item = document.createElement('li');
    item.className = 'menu-note';
    item.textContent = text;
    list.replaceChildren(item);
  };
  if (!access.canManage) return note('Only the admin sees the other drawings');
  list.setAttribute('aria-busy', 'true');
  let drawings;
  try {
    const response = await api.list();
    if (!response.ok) throw new Error(response.statusText);
    drawings = newestFirst(await response.json());
  } catch {
    drawings = null;
  }
  list.removeAttribute('aria-busy');
  if (!drawings) return note('The server is unreachable');
  known = new Set(drawings.map((drawing) => drawing.name));
  if (!drawings.length) return note('No saved drawings yet');
  list.replaceChildren(...drawings.map(drawingItem));
  applyFilter();
}

/** Shows only the drawings whose names hold the search field's text (any case). */
function applyFilter() {
  const list = document.getElementById('drawing-list');
  const wanted = filter.value.trim().toLowerCase();
  let shown = 0;
  for (const item of list.querySelectorAll('.drawing-item')) {
    item.hidden = !item.dataset.name.toLowerCase().includes(wanted);
    if (!item.hidden) shown++;
  }
  list.querySelector('.filter-note')?.remove();
  if (shown === 0 && list.querySelector('.drawing-item')) {
    const item = document.createElement('li');
    item.className = 'menu-note filter-note';
    item.setAttribute('role', 'status');
    item.textContent = `No drawing named like “${filter.value.trim()}”`;
    list.append(item);
  }
}

filter.addEventListener('input', applyFilter);
filter.addEventListener('keydown', (event) => {
  if (event.key === 'Escape') {
    // The first Escape empties the field; the next closes the menu (the page's own keys skip fields).
    event.preventDefault();
    event.stopPropagation();
    if (filter.value) {
      filter.value = '';
      applyFilter();
    } else {
      closeFileMenu();
      menu.querySelector('summary').focus();
    }
  } else if (event.key === 'Enter' || event.key === 'ArrowDown') {
    // To the first drawing shown (Enter then opens it).
    const first = document.querySelector('#drawing-list .drawing-item:not([hidden]) .drawing-link');
    if (!first) return;
    event.preventDefault();
    first.focus();
  }
});

/**
 * The drawing's picture from the server: at its listed revision, so the
 * browser keeps it until the drawing changes. With access control on, an
 * <img> cannot send the admin token: fetched then, from the same cache.
 */
function loadThumbnail(image, drawing) {
  image.addEventListener('error', () => image.removeAttribute('src'), { once: true });
  if (!access.headers(null).Authorization) {
    image.src = api.thumbnailURL(drawing.name, drawing.revision);
    return;
  }
  api
    .thumbnail(drawing.name, drawing.revision)
    .then((response) => (response.ok ? response.blob() : null))
    .then((blob) => {
      if (!blob) return;
      const url = URL.createObjectURL(blob);
      image.addEventListener('load', () => URL.revokeObjectURL(url), { once: true });
      image.src = url;
    })
    .catch(() => {});
}

function drawingItem(drawing) {
  const link = document.createElement('a');
  link.href = openURL(drawing.name);
  link.className = 'drawing-link';
  const current = drawing.name === saver.name;
  if (current) link.setAttribute('aria-current', 'page');
  const title = document.createElement('span');
  title.className = 'drawing-title';
  title.textContent = drawing.name;
  const lines = drawing.lineCount;
  const circles = drawing.circleCount;
  const when = drawing.updatedAt ? new Date(drawing.updatedAt).toLocaleString() : '';
  const details = document.createElement('small');
  details.textContent = `${lines} line${lines === 1 ? '' : 's'}, ${circles} circle${circles === 1 ? '' : 's'}` +
    (when ? ` · ${when}` : '');
  const thumbnail = document.createElement('img');
  thumbnail.className = 'drawing-thumb';
  thumbnail.alt = '';
  thumbnail.width = 48;
  thumbnail.height = 36;
  thumbnail.loading = 'lazy';
  thumbnail.decoding = 'async';
  loadThumbnail(thumbnail, drawing);
  const text = document.createElement('span');
  text.className = 'drawing-text';
  text.append(title, details);
  link.append(thumbnail, text);

  const rename = iconButton('rename', `Rename ${drawing.name}`,
    '<path d="M4 20h4L19 9l-4-4L4 16z"/><path d="M13 7l4 4"/>');
  rename.addEventListener('click', () => renameDrawing(drawing.name));

  const duplicate = iconButton('duplicate', `Duplicate ${drawing.name}`,
    '<rect x="8" y="8" width="12" height="12" rx="2"/><path d="M16 8V6a2 2 0 0 0-2-2H6a2 2 0 0 0-2 2v8a2 2 0 0 0 2 2h2"/>');
  duplicate.addEventListener('click', () => duplicateDrawing(drawing.name));
  const remove = iconButton('delete', current ? `${drawing.name} is open: open another drawing to delete it` : `Delete ${drawing.name}`,
    '<path d="M4 7h16"/><path d="M9 7V4h6v3"/><path d="M6 7l1 13h10l1-13"/>');
  remove.disabled = current;
  remove.addEventListener('click', () => deleteDrawing(drawing.name));

  const item = document.createElement('li');
  item.className = 'drawing-item';
  item.dataset.name = drawing.name;
  item.append(link, rename, duplicate, remove);
  return item;
}

function iconButton(action, label, paths) {
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'icon';
  button.dataset.drawingAction = action;
  button.setAttribute('aria-label', label);
  button.title = label;
  button.innerHTML = `<svg viewBox="0 0 24 24" aria-hidden="true">${paths}</svg>`;
  return button;
}

/** The whole drawing, lines beyond the window included (paint/export.js). */
export async function exportPNG() {
  const name = saver.name;
  try {
    download(await pngOfSVG(svgText()), `${name}.png`);
  } catch (error) {
    showBanner(`Could not export PNG: ${error.message}.`, 'warning', [['OK', hideBanner]]);
  }
}

export function exportSVG() {
  let svg;
  try {
    svg = svgText();
  } catch (error) {
    return showBanner(`Could not export SVG: ${error.message}.`, 'warning', [['OK', hideBanner]]);
  }
  download(new Blob([svg], { type: 'image/svg+xml' }), `${saver.name}.svg`);
}

const nameProblem = (name) =>
  NAME_PATTERN.test(name) ? null : 'Use 1–64 letters, digits, - or _ (no spaces).';

/**
 * Creates the drawing on the server (`If-Match: "0"`: only if no drawing has
 * the name), so opening it finds a document and the console shows no 404.
 * Answers 'created', 'exists', or 'offline' (the server could not say).
 */
async function create(name, text) {
  try {
    const response = await api.create(name, text);
    if (response.ok) return 'created';
    if (response.status === 409 || response.status === 412) return 'exists';
    return 'offline';
  } catch {
    return 'offline';
  }
}

/** Says `name` is taken and offers to open it; never opens it unasked. */
async function offerExisting(name) {
  const answer = await ask({
    title: `“${name}” already exists`,
    text: 'Open it, or choose another name.',
    confirm: 'Open it',
    cancel: 'Cancel',
    other: 'Other name',
  });
  if (answer === 'ok') {
    await saver.flush();
    location.assign(openURL(name));
  }
  return answer === 'extra';
}

export async function newDrawing() {
  const stamp = new Date().toISOString().slice(0, 16).replace(/[-:]/g, '').replace('T', '-');
  let value = `drawing-${stamp}`;
  for (;;) {
    const name = await askName({
      title: 'New drawing',
      label: 'Name (letters, digits, - and _)',
      value,
      confirm: 'Create',
      validate: nameProblem,
    });
    if (name === null) return;
    value = name;
    const result = known.has(name) ? 'exists' : await create(name, EMPTY_DOCUMENT);
    if (result === 'exists') {
      if (await offerExisting(name)) continue;
      return;
    }
    await saver.flush();
    location.assign(openURL(name));
    return;
  }
}

async function duplicateDrawing(source) {
  closeFileMenu();
  if (source === saver.name) await saver.flush();
  let value = `${source.slice(0, 59)}-copy`;
  for (;;) {
    const name = await askName({
      title: `Duplicate “${source}”`,
      label: 'Name of the copy',
      value,
      confirm: 'Duplicate',
      validate: (name) => nameProblem(name) ?? (known.has(name) ? `“${name}” already exists.` : null),
    });
    if (name === null) return;
    value = name;
    let text;
    try {
      const response = await api.drawing(source);
      if (!response.ok) throw new Error(response.status === 404 ? 'it is not on the server yet' : response.statusText);
      text = await response.text();
    } catch (error) {
      return showBanner(`Could not duplicate “${source}”: ${error.message}.`, 'warning', [['OK', hideBanner]]);
    }
    const result = await create(name, text);
    if (result === 'exists') {
      if (await offerExisting(name)) continue;
      return;
    }
    if (result === 'offline') {
      return showBanner(`Could not duplicate “${source}”: the server did not answer.`, 'warning', [['OK', hideBanner]]);
    }
    known.add(name);
    showNotice(`Duplicated as “${name}”`, [['Open', () => location.assign(openURL(name))]]);
    return;
  }
}

/**
 * Renames `source` on the server (POST .../rename), which keeps its
 * document, change log, revisions and share links. The open drawing is
 * saved first and its saving paused until the answer: then the page
 * follows it to the new name (saver.moveTo), and lines drawn meanwhile go
 * there. A name in use is said, never overwritten.
 */
async function renameDrawing(source) {
  closeFileMenu();
  let value = source;
  let problem = null;
  for (;;) {
    const name = await askName({
      title: `Rename “${source}”`,
      label: 'New name',
      value,
      confirm: 'Rename',
      problem,
      validate: (name) =>
        nameProblem(name) ??
        (name === source ? `It is named “${name}” already.` : known.has(name) ? `“${name}” already exists.` : null),
    });
    if (name === null) return;
    value = name;
    const result = await renameOnServer(source, name);
    if (result === 'renamed') {
      known.delete(source);
      known.add(name);
      showNotice(`Renamed “${source}” to “${name}”`);
      return;
    }
    if (result === 'exists') {
      known.add(name);
      problem = `“${name}” already exists.`;
      continue;
    }
    return showBanner(`Could not rename “${source}”: ${result}.`, 'warning', [['OK', hideBanner]]);
  }
}

/** 'renamed', 'exists', or why not (the end of a sentence). */
async function renameOnServer(source, name) {
  const open = source === saver.name;
  const busy = () =>
    saver.stopped === 'playback'
      ? 'a recording is playing in its place: stop it first'
      : 'saving it waits for your decision first (see the message below)';
  if (open) {
    if (saver.stopped) return busy();
    await saver.flush();
    if (saver.stopped) return busy();
    saver.stopped = 'renaming';
    while (saver.inFlight) await saver.inFlight;
  }
  try {
    const response = await api.rename(source, name);
    const answer = await response.json().catch(() => ({}));
    if (response.ok) {
      if (open) await saver.moveTo(name, (answer.revision ?? 0) - (answer.previousRevision ?? 0));
      return 'renamed';
    }
    // 409 without a revision: the name is taken (with one, the drawing moved on; not sent here).
    if (response.status === 409 && answer.revision === undefined) return 'exists';
    return (answer.error || response.statusText || `error ${response.status}`).replace(/\.$/, '');
  } catch {
    return 'the server did not answer';
  } finally {
    if (open && saver.stopped === 'renaming') {
      saver.stopped = null;
      saver.schedule();
    }
  }
}

async function deleteDrawing(name) {
  closeFileMenu();
  const answer = await ask({
    title: `Delete “${name}”?`,
    text: 'The drawing is removed from the server. “Undo” in the message that follows brings it back.',
    confirm: 'Delete',
    danger: true,
  });
  if (answer !== 'ok') return;
  let kept = null; // the document as it was, held by this page for Undo while the message shows
  try {
    const copy = await api.drawing(name);
    if (copy.ok) kept = await copy.text();
    const response = await api.remove(name);
    if (!response.ok && response.status !== 404) throw new Error(response.statusText || `error ${response.status}`);
  } catch (error) {
    return showBanner(`Could not delete “${name}”: ${error.message}.`, 'warning', [['OK', hideBanner]]);
  }
  known.delete(name);
  showNotice(`Deleted “${name}”`, kept === null ? [] : [['Undo', () => restoreDrawing(name, kept)]]);
}

/**
 * Undo of a delete: the drawing is made again under its name from the copy
 * kept before deleting (its lines and circles, ids and all; its history of
 * changes and its share links start anew). Never over a drawing someone
 * made with that name meanwhile.
 */
async function restoreDrawing(name, text) {
  const result = await create(name, text);
  if (result === 'created') {
    known.add(name);
    return showNotice(`Restored “${name}”`);
  }
  const why = result === 'exists' ? 'a drawing with that name was made meanwhile' : 'the server did not answer';
  showBanner(`Could not restore “${name}”: ${why}.`, 'warning', [
    ['Save it as a file', () => download(new Blob([text], { type: 'application/json' }), `${name}.json`)],
    ['Dismiss', hideBanner],
  ]);
}
