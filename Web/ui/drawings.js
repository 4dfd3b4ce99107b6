// The "⋯" menu: new drawing, exports, and the saved drawings, newest first,
// each of which can be opened, duplicated or deleted. Names are asked for in
// the page's own dialog (ui/dialog.js), never with prompt().

import { NAME_PATTERN, svgText } from '../core/bridge.js';
import { pngOfSVG } from '../paint/export.js';
import { access } from '../sync/access.js';
import { saver } from '../sync/saver.js';
import { download, hideBanner, showBanner } from './banner.js';
import { ask, askName } from './dialog.js';
import { showNotice } from './notice.js';

const menu = document.getElementById('file-menu');
const EMPTY = '{"format":"touchtracker","version":1,"lines":[],"circles":[]}';
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

const api = (name) => '/api/drawings/' + encodeURIComponent(name);
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
    const response = await fetch('/api/drawings', { cache: 'no-store', headers: access.headers(null) });
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
  link.append(title, details);

  const duplicate = iconButton('duplicate', `Duplicate ${drawing.name}`,
    '<rect x="8" y="8" width="12" height="12" rx="2"/><path d="M16 8V6a2 2 0 0 0-2-2H6a2 2 0 0 0-2 2v8a2 2 0 0 0 2 2h2"/>');
  duplicate.addEventListener('click', () => duplicateDrawing(drawing.name));
  const remove = iconButton('delete', current ? `${drawing.name} is open: open another drawing to delete it` : `Delete ${drawing.name}`,
    '<path d="M4 7h16"/><path d="M9 7V4h6v3"/><path d="M6 7l1 13h10l1-13"/>');
  remove.disabled = current;
  remove.addEventListener('click', () => deleteDrawing(drawing.name));

  const item = document.createElement('li');
  item.className = 'drawing-item';
  item.append(link, duplicate, remove);
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
    const response = await fetch(api(name), {
      method: 'PUT',
      headers: access.headers(null, { 'Content-Type': 'application/json', 'If-Match': '"0"' }),
      body: text,
    });
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
    const result = known.has(name) ? 'exists' : await create(name, EMPTY);
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
      const response = await fetch(api(source), { cache: 'no-store', headers: access.headers(source) });
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

async function deleteDrawing(name) {
  closeFileMenu();
  const answer = await ask({
    title: `Delete “${name}”?`,
    text: 'The drawing is removed from the server. This cannot be undone.',
    confirm: 'Delete',
    danger: true,
  });
  if (answer !== 'ok') return;
  try {
    const response = await fetch(api(name), { method: 'DELETE', headers: access.headers(null) });
    if (!response.ok && response.status !== 404) throw new Error(response.statusText || `error ${response.status}`);
  } catch (error) {
    return showBanner(`Could not delete “${name}”: ${error.message}.`, 'warning', [['OK', hideBanner]]);
  }
  known.delete(name);
  showNotice(`Deleted “${name}”`);
}
