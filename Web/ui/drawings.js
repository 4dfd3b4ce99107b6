// The "⋯" menu: new drawing, exports, and the saved drawings, newest first,
// a page at a time (ui/drawing-list.js), each with a thumbnail (GET
// .../thumbnail, cached by revision), which can be opened, renamed,
// duplicated or deleted (ui/drawing-actions.js), and a field that searches
// them by name on the server.

import { svgText } from '../core/bridge.js';
import { pngOfSVG } from '../paint/export.js';
import { access } from '../server/access.js';
import { api } from '../server/api.js';
import { saver } from '../sync/saver.js';
import { download, hideBanner, showBanner } from './banner.js';
import { deleteDrawing, duplicateDrawing, knowNames, openURL, renameDrawing } from './drawing-actions.js';
import { pagedList } from './drawing-list.js';

const menu = document.getElementById('file-menu');
const filter = document.getElementById('drawing-filter');
const list = document.getElementById('drawing-list');

/** Closes the menu; true if it was open. */
export function closeFileMenu() {
  const wasOpen = menu.open;
  menu.open = false;
  return wasOpen;
}

/** Newest first: the one changed last is the one most likely wanted again (the server's order). */
export function newestFirst(drawings) {
  const time = (drawing) => Date.parse(drawing.updatedAt ?? '') || 0;
  return [...drawings].sort((a, b) => time(b) - time(a) || a.name.localeCompare(b.name));
}

function note(text) {
  const item = document.createElement('li');
  item.className = 'menu-note';
  item.textContent = text;
  return item;
}

const drawings = pagedList({
  list,
  filter,
  scroller: menu.querySelector('.menu'),
  itemFor: drawingItem,
  note,
  onNames: (names, fresh) => knowNames(names, { fresh }),
  canList: () => access.canManage,
});

menu.addEventListener('toggle', () => {
  if (!menu.open) return;
  if (!access.canManage) return list.replaceChildren(note('Only the admin sees the other drawings'));
  drawings.showFirst();
});

filter.addEventListener('keydown', (event) => {
  if (event.key !== 'Escape') return;
  // The first Escape empties the field; the next closes the menu (the page's own keys skip fields).
  event.preventDefault();
  event.stopPropagation();
  if (filter.value) {
    drawings.clearSearch();
  } else {
    closeFileMenu();
    menu.querySelector('summary').focus();
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
  rename.addEventListener('click', () => {
    closeFileMenu();
    renameDrawing(drawing.name);
  });

  const duplicate = iconButton('duplicate', `Duplicate ${drawing.name}`,
    '<rect x="8" y="8" width="12" height="12" rx="2"/><path d="M16 8V6a2 2 0 0 0-2-2H6a2 2 0 0 0-2 2v8a2 2 0 0 0 2 2h2"/>');
  duplicate.addEventListener('click', () => {
    closeFileMenu();
    duplicateDrawing(drawing.name);
  });
  const remove = iconButton('delete', current ? `${drawing.name} is open: open another drawing to delete it` : `Delete ${drawing.name}`,
    '<path d="M4 7h16"/><path d="M9 7V4h6v3"/><path d="M6 7l1 13h10l1-13"/>');
  remove.disabled = current;
  remove.addEventListener('click', () => {
    closeFileMenu();
    deleteDrawing(drawing.name);
  });

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
