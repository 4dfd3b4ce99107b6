// What the "⋯" menu (ui/drawings.js) does to the saved drawings on the
// server: make a new one, duplicate, rename and delete one, and undo a
// delete. Names are asked for in the page's own dialog (ui/dialog.js), never
// with prompt(); a name in use is said, never overwritten.

import { NAME_PATTERN } from '../core/bridge.js';
import { EMPTY_DOCUMENT, api } from '../server/api.js';
import { saver } from '../sync/saver.js';
import { download, hideBanner, showBanner } from './banner.js';
import { ask, askName } from './dialog.js';
import { showNotice } from './notice.js';

/**
 * Names the menu has listed (its pages so far), to say "already exists"
 * before asking the server; the server says it of the others (409).
 */
const known = new Set();

/** The menu listed these drawings' names; `fresh`: a new listing, forget the last one's. */
export function knowNames(names, { fresh = false } = {}) {
  if (fresh) known.clear();
  for (const name of names) known.add(name);
}

/** The page's address that opens drawing `name`. */
export const openURL = (name) => '?drawing=' + encodeURIComponent(name);

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

export async function duplicateDrawing(source) {
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
export async function renameDrawing(source) {
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

export async function deleteDrawing(name) {
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
