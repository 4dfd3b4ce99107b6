// The Share sheet: the drawing's edit and view links, each with a Copy
// button, and the QR code of the link to draw with, for a phone's camera.
// The server makes the links (GET .../links); a view link's page shows only
// its own. The admin can replace both ("New links"): the old ones stop
// working at once. With access control off nothing is view only: the sheet
// offers the drawing's own address, to draw with.

import { access } from '../server/access.js';
import { saver } from '../sync/saver.js';
import { drawQR } from './qr.js';

const sheet = document.getElementById('share');
const status = document.getElementById('share-status');

async function copy(input) {
  try {
    await navigator.clipboard.writeText(input.value);
    return true;
  } catch {
    // No clipboard API (plain http on another machine) or no permission: the older way.
    input.focus();
    input.select();
    try {
      return document.execCommand('copy');
    } catch {
      return false;
    }
  }
}

function fill() {
  const links = access.links || {};
  const name = saver.name;
  document.getElementById('share-title').textContent = `Share “${name}”`;
  const open = access.role === 'open';
  const edit = open ? access.drawingAddress(name) : links.edit ? access.linkURL(name, links.edit) : null;
  const view = !open && links.view ? access.linkURL(name, links.view) : null;
  document.getElementById('share-edit').hidden = !edit;
  document.getElementById('share-view').hidden = !view;
  document.getElementById('share-edit-url').value = edit ?? '';
  document.getElementById('share-view-url').value = view ?? '';
  const note = document.getElementById('share-note');
  if (access.role === 'open') {
    // The flag in a <code> that does not wrap: a line break after its first hyphen reads "-" and "-access-control".
    const flag = document.createElement('code');
    flag.textContent = '--access-control';
    note.replaceChildren(
      'Access control is off on this server: anyone who can reach it can open and draw on every drawing. View-only links need a server started with ',
      flag,
      '.',
    );
  } else if (access.role === 'view') {
    note.textContent = 'Your link is view only: it shows the drawing and its changes as they happen.';
  } else {
    note.textContent = 'Anyone with a link can open this drawing. Share the view-only link with people who should only watch.';
  }
  const figure = document.getElementById('share-qr-figure');
  const target = edit ?? view;
  figure.hidden = !target;
  if (target) {
    try {
      drawQR(document.getElementById('share-qr'), target);
      document.getElementById('share-qr-caption').textContent = edit
        ? "Scan with a phone's camera to draw on it"
        : "Scan with a phone's camera to watch it";
    } catch (error) {
      figure.hidden = true;
      status.textContent = error.message;
    }
  }
  document.getElementById('share-rotate').hidden = access.role !== 'admin';
}

export async function openShare() {
  status.textContent = '';
  if (!access.links) await access.check(saver.name);
  if (!access.links) {
    status.textContent = 'The server did not give links (offline?). Try again when it is back.';
  }
  fill();
  if (!sheet.open) sheet.showModal();
}

export function attachShare() {
  sheet.addEventListener('click', async (event) => {
    if (event.target === sheet) return sheet.close();
    const button = event.target.closest('button');
    if (!button) return;
    if (button.dataset.copy) {
      const done = await copy(document.getElementById(button.dataset.copy));
      status.textContent = done ? 'Copied.' : 'Could not copy: select the link and copy it yourself.';
    } else if (button.id === 'share-rotate') {
      try {
        await access.rotate(saver.name);
        fill();
        status.textContent = 'New links made: the old ones no longer open this drawing.';
      } catch (error) {
        status.textContent = `Could not make new links: ${error.message}`;
      }
    }
  });
}
