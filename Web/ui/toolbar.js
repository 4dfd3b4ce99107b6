// The toolbar and the keyboard: buttons and keys call the core, and the
// toolbar shows the core's state (undo/redo, toggles, palette, the name).

import { coreState, tt } from '../core/bridge.js';
import { access } from '../server/access.js';
import { saver } from '../sync/saver.js';
import { checkForClear, pageCommandFollows } from './clear-notice.js';
import { newDrawing } from './drawing-actions.js';
import { closeFileMenu, exportPNG, exportSVG } from './drawings.js';
import { attachHelp, openHelp } from './help.js';
import { toggleInspector } from './inspector.js';
import { syncPaletteChoices } from './palette-choices.js';
import { attachSafeArea } from './safe-area.js';
import { attachShare, openShare } from './share.js';
import { announceToggle, attachTouchFeedback } from './touch-feedback.js';

const toolbar = document.getElementById('toolbar');

const undo = () => {
  pageCommandFollows();
  tt.tt_undo();
};
const redo = () => {
  pageCommandFollows();
  tt.tt_redo();
};

const commands = {
  palette: () => (tt.tt_palette_visible() ? tt.tt_hide_palette() : tt.tt_show_palette()),
  undo,
  redo,
  angle: () => tt.tt_set_colors_by_angle(tt.tt_colors_by_angle() ? 0 : 1),
  speed: () => tt.tt_set_widths_by_speed(tt.tt_widths_by_speed() ? 0 : 1),
  pen: () => tt.tt_set_pen_only(tt.tt_pen_only() ? 0 : 1),
  help: openHelp,
  png: exportPNG,
  svg: exportSVG,
  new: newDrawing,
  share: openShare,
  inspector: () => toggleInspector(),
};

/** What a view-only page may still do: look, export, read the help, share its own link. */
const VIEWING = new Set(['help', 'png', 'svg', 'share']);

let shown = '';
/** Updates the toolbar if what it shows changed (or always, with `force`). */
export function refreshToolbar(force) {
  const state = coreState();
  checkForClear(state);
  syncPaletteChoices(state, () => refreshToolbar(true));
  const key = `${state.changeCount} ${state.paletteVisible} ${state.colorsByAngle} ${saver.dirty()} ${saver.name} ${access.role}`;
  if (!force && key === shown) return;
  shown = key;
  toolbar.querySelector('[data-command="undo"]').disabled = !state.canUndo;
  toolbar.querySelector('[data-command="redo"]').disabled = !state.canRedo;
  toolbar.querySelector('[data-toggle="angle"]').setAttribute('aria-pressed', state.colorsByAngle);
  toolbar.querySelector('[data-toggle="speed"]').setAttribute('aria-pressed', state.widthsBySpeed);
  toolbar.querySelector('[data-toggle="pen"]').setAttribute('aria-pressed', state.penOnlyDraws);
  toolbar.querySelector('[data-command="palette"]').setAttribute('aria-pressed', state.paletteVisible);
  const readOnly = access.readOnly;
  for (const button of toolbar.querySelectorAll('#toolbar > button[data-command], #toolbar > button[data-toggle]')) {
    const name = button.dataset.command || button.dataset.toggle;
    if (readOnly && !VIEWING.has(name)) button.disabled = true;
    else if (name !== 'undo' && name !== 'redo') button.disabled = false;
  }
  document.getElementById('view-only').hidden = access.role !== 'view';
  toolbar.querySelector('[data-command="new"]').hidden = !access.canManage;
  toolbar.querySelector('[data-command="share"]').hidden = access.role === 'none';
  const label = document.getElementById('drawing-name');
  label.textContent = saver.name;
  label.title = saver.dirty() ? `${saver.name} (changes not saved yet)` : saver.name;
  label.classList.toggle('unsaved', saver.dirty());
}

/** Keys do nothing to the drawing while a dialog or a field has them. */
const keysElsewhere = (event) => document.querySelector('dialog[open]') || event.target.closest?.('input, textarea');

export function attachToolbar() {
  // The PNG is the SVG rasterized (paint/export.js): a core without the SVG export has neither.
  if (!tt.tt_export_svg) {
    toolbar.querySelector('[data-command="svg"]').hidden = true;
    toolbar.querySelector('[data-command="png"]').hidden = true;
  }
  attachHelp();
  attachShare();
  attachSafeArea();
  attachTouchFeedback(() => refreshToolbar(true));

  toolbar.addEventListener('click', (event) => {
    const button = event.target.closest('button[data-command], button[data-toggle]');
    if (!button) return;
    if (button.closest('.menu')) closeFileMenu();
    const name = button.dataset.command || button.dataset.toggle;
    if (access.readOnly && !VIEWING.has(name)) return;
    commands[name]();
    refreshToolbar(true);
    if (button.dataset.toggle) announceToggle(button);
  });

  document.addEventListener('keydown', (event) => {
    if (keysElsewhere(event)) return;
    const key = event.key.toLowerCase();
    if (access.readOnly && key !== '?' && key !== 'escape') return;
    if ((event.metaKey || event.ctrlKey) && key === 'z') {
      event.shiftKey ? redo() : undo();
    } else if ((event.metaKey || event.ctrlKey) && key === 'y') {
      redo();
    } else if (key === 'delete' || key === 'backspace') {
      pageCommandFollows();
      tt.tt_delete_selected();
    } else if (key === '?') {
      openHelp();
    } else if (key === 'i' && !event.metaKey && !event.ctrlKey && !event.altKey) {
      toggleInspector();
    } else if (/^[1-7]$/.test(key) && tt.tt_palette_visible() && tt.tt_choose_color) {
      // The palette is drawn by the core on the canvas: 1–7 choose its colors in order.
      tt.tt_choose_color(Number(key) - 1);
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
}
