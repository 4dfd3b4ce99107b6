// The core places its edit menu and its palette inside the window's safe
// area (Window.safeAreaInsets, as in UIKit). The page's own controls float
// over the canvas, so the page reports what they cover: the toolbar at the
// top (and the zoom buttons beside it, or at the bottom on a phone), the
// messages at the bottom. A line's "Delete" menu then flips below
// the line instead of hiding under the toolbar, and the palette fits between
// the two.

import { tt } from '../core/bridge.js';

const GAP = 6;
let reported = '';

function report() {
  if (!tt?.tt_set_safe_area) return; // a core built before the safe area: it uses the whole window
  const height = document.documentElement.clientHeight;
  const toolbar = document.getElementById('toolbar').getBoundingClientRect();
  let bottom = 0;
  for (const element of document.getElementById('messages').children) {
    if (element.hidden || !element.offsetHeight) continue;
    bottom = Math.max(bottom, height - element.getBoundingClientRect().top + GAP);
  }
  // The zoom buttons: beside the toolbar on a wide screen, at the bottom on a phone.
  let top = Math.ceil(toolbar.bottom + GAP);
  const zoom = document.getElementById('zoom')?.getBoundingClientRect();
  if (zoom && zoom.top < height / 2) top = Math.max(top, Math.ceil(zoom.bottom + GAP));
  else if (zoom) bottom = Math.max(bottom, height - zoom.top + GAP);
  // The inspector: a side panel covers the right, a bottom sheet the bottom.
  let right = 0;
  const panel = document.getElementById('inspector');
  if (panel && !panel.hidden) {
    const box = panel.getBoundingClientRect();
    if (box.top > top) bottom = Math.max(bottom, height - box.top + GAP);
    else right = document.documentElement.clientWidth - box.left + GAP;
  }
  const insets = `${top} ${Math.ceil(bottom)} ${Math.ceil(right)}`;
  if (insets === reported) return;
  reported = insets;
  tt.tt_set_safe_area(top, 0, Math.ceil(bottom), Math.ceil(right));
}

export function attachSafeArea() {
  const observer = new ResizeObserver(report);
  observer.observe(document.getElementById('toolbar'));
  if (document.getElementById('inspector')) observer.observe(document.getElementById('inspector'));
  for (const element of document.getElementById('messages').querySelectorAll('#hint, .notice-box, #banner')) {
    observer.observe(element);
  }
  window.addEventListener('resize', report);
  report();
}
