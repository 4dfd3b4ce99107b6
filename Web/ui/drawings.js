// The "⋯" menu: new drawing, exports, and the list of saved drawings to open.

import { NAME_PATTERN, svgText } from '../core/bridge.js';
import { staticCanvas } from '../paint/canvas.js';
import { saver } from '../sync/saver.js';
import { download, hideBanner, showBanner } from './banner.js';

const menu = document.getElementById('file-menu');

/** Closes the menu; true if it was open. */
export function closeFileMenu() {
  const wasOpen = menu.open;
  menu.open = false;
  return wasOpen;
}

menu.addEventListener('toggle', () => {
  if (menu.open) listDrawings();
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
      const lines = drawing.lineCount;
      const circles = drawing.circleCount;
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

export function exportPNG() {
  staticCanvas.toBlob((blob) => download(blob, `${saver.name}.png`), 'image/png');
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

export async function newDrawing() {
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
