// The palette is drawn by the core on the canvas, where screen readers and
// the Tab key cannot reach it. While it is open, a group of real buttons
// lies over the drawn ones: each named by its color, the current one
// pressed, in the palette's order. They take no pointer events (touches and
// the mouse still reach the core's palette, as recordings expect), only focus
// and activation: Tab or a screen reader's cursor moves through them, Enter,
// Space or a screen reader's activation chooses, as a tap on the palette does.

import { tt } from '../core/bridge.js';

const group = document.getElementById('palette-choices');
let shown = '';

/**
 * Lays the buttons over the core's palette as `state` (the core's state)
 * reports it, or takes them away when it is closed. `onChoose` runs after a
 * choice. Focus follows: into the palette when it opened from the toolbar's
 * Colors button, back to that button when it closed from inside it, and
 * stays on its color when the palette moves.
 */
export function syncPaletteChoices(state, onChoose) {
  const palette = state.palette ?? [];
  const key = JSON.stringify(palette);
  if (key === shown) return;
  const opened = group.hidden && palette.length > 0;
  shown = key;
  const opener = document.querySelector('#toolbar [data-command="palette"]');
  const hadFocus = group.contains(document.activeElement);
  const focusedTitle = hadFocus ? document.activeElement.getAttribute('aria-label') : null;
  group.replaceChildren(
    ...palette.map((choice, index) => {
      const button = document.createElement('button');
      button.type = 'button';
      button.setAttribute('aria-label', choice.title);
      button.setAttribute('aria-pressed', String(choice.chosen));
      Object.assign(button.style, {
        left: `${choice.x}px`,
        top: `${choice.y}px`,
        width: `${choice.width}px`,
        height: `${choice.height}px`,
      });
      button.addEventListener('click', () => {
        tt.tt_choose_color(index);
        onChoose();
      });
      return button;
    }),
  );
  group.hidden = palette.length === 0;
  if (palette.length === 0) {
    if (hadFocus) opener?.focus();
  } else if (hadFocus || (opened && document.activeElement === opener)) {
    // The same color keeps the focus when the palette moves (a resize); else the current one takes it.
    const same = [...group.children].find((button) => button.getAttribute('aria-label') === focusedTitle);
    (same ?? group.querySelector('[aria-pressed="true"]') ?? group.firstElementChild).focus();
  }
}
