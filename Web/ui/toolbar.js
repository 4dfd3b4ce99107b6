// The toolbar and the keyboard: buttons and keys call the core, and the
// toolbar shows the core's state (undo/redo, toggles, palette, the name).

import { coreState, tt } from '../core/bridge.js';
import { saver } from '../sync/saver.js';
import { closeFileMenu, exportPNG, exportSVG, newDrawing } from './drawings.js';

const toolbar = document.getElementById('toolbar');

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

let shown = '';
/** Updates the toolbar if what it shows changed (or always, with `force`). */
export function refreshToolbar(force) {
  const key = `${tt.tt_change_count()} ${tt.tt_palette_visible()} ${saver.dirty()} ${saver.name}`;
  if (!force && key === shown) return;
  shown = key;
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

export function attachToolbar() {
  if (!tt.tt_export_svg) toolbar.querySelector('[data-command="svg"]').hidden = true;

  toolbar.addEventListener('click', (event) => {
    const button = event.target.closest('button[data-command], button[data-toggle]');
    if (!button) return;
    commands[button.dataset.command || button.dataset.toggle]();
    if (button.closest('.menu')) closeFileMenu();
    refreshToolbar(true);
  });

  document.addEventListener('keydown', (event) => {
    if (event.target.closest?.('input, textarea')) return;
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
}
