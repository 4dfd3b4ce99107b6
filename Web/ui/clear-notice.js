// A double tap clears the whole drawing (the book's gesture). It stays, but
// it is never silent: after a clear the page says "Cleared" and offers Undo.
//
// The core reports no "cleared" event, so this reads the state after each
// change: every shape gone at once, and not by a command of this page (undo,
// redo, Delete), is a clear. Deleting the only line from its menu also empties
// the drawing; a line was selected then, which tells it apart. An undo by
// gesture (a two-finger tap) can empty it too; it leaves something to redo,
// which a clear never does.

import { coreState, tt } from '../core/bridge.js';
import { showNotice } from './notice.js';

let before = null;
let ownCommand = false;

/** Call before the page itself changes the drawing (undo, redo, delete). */
export function pageCommandFollows() {
  ownCommand = true;
}

/** Call once a frame, after the core handled the frame's input. */
export function checkForClear(state = coreState()) {
  const shapes = state.lines + state.circles;
  const was = before;
  before = { shapes, selected: state.selectedLine !== null || state.selectedCircle != null, changeCount: state.changeCount };
  const byPage = ownCommand;
  ownCommand = false;
  if (!was || byPage || state.changeCount === was.changeCount) return;
  if (was.shapes > 0 && shapes === 0 && state.canUndo && !state.canRedo && !(was.shapes === 1 && was.selected)) {
    showNotice('Cleared', [['Undo', () => {
      pageCommandFollows();
      tt.tt_undo();
    }]]);
  }
}
