// Other people's lines in progress (presence, docs/DESIGN.md "Live sync over
// WebSocket"): painted on their own canvas above the drawing, in a color of
// each person's own, with a dot where their finger is. Nothing here goes into
// the core: these lines are not the drawing until their owner lifts.

import { onViewportChange, viewport } from '../input/viewport.js';

const canvas = document.createElement('canvas');
canvas.id = 'presence';
canvas.setAttribute('aria-hidden', 'true');
Object.assign(canvas.style, { position: 'fixed', inset: '0', width: '100%', height: '100%', pointerEvents: 'none' });
const ctx = canvas.getContext('2d');

/** Each person's lines in progress, by their client id. */
const people = new Map();
let scheduled = false;

/** A color of the person's own, from their id, never the drawing's black or the app's red. */
export function personColor(id) {
  let hash = 0;
  for (let i = 0; i < id.length; i++) hash = (hash * 31 + id.charCodeAt(i)) >>> 0;
  return `hsl(${(hash % 300) + 30}, 75%, 42%)`;
}

/** Puts the canvas over the drawing (once the page has its canvas). */
export function attachPresence() {
  document.getElementById('canvas').after(canvas);
  onViewportChange(() => people.size && repaint());
}

/** `lines` as the person `id` sent them; an empty list: they lifted. */
export function showPresence(id, lines) {
  if (lines.length === 0) people.delete(id);
  else people.set(id, lines);
  repaint();
}

/** The person left, or everyone did (the connection closed). */
export function forgetPresence(id = null) {
  if (id === null) people.clear();
  else people.delete(id);
  repaint();
}

/** Who is drawing right now, and how many lines each (for tests). */
export function presenceState() {
  return Object.fromEntries([...people].map(([id, lines]) => [id, lines.length]));
}

function repaint() {
  if (scheduled) return;
  scheduled = true;
  requestAnimationFrame(() => {
    scheduled = false;
    paintPresence();
  });
}

function paintPresence() {
  const dpr = window.devicePixelRatio || 1;
  const width = Math.round(document.documentElement.clientWidth * dpr);
  const height = Math.round(document.documentElement.clientHeight * dpr);
  if (canvas.width !== width || canvas.height !== height) {
    canvas.width = width;
    canvas.height = height;
  }
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.clearRect(0, 0, width, height);
  // Their lines are in the drawing's coordinates: panned and zoomed as it is.
  const { x, y, zoom } = viewport();
  ctx.setTransform(dpr * zoom, 0, 0, dpr * zoom, -x * zoom * dpr, -y * zoom * dpr);
  ctx.lineCap = 'round';
  for (const [id, lines] of people) {
    const color = personColor(id);
    ctx.strokeStyle = color;
    ctx.fillStyle = color;
    for (const line of lines) {
      ctx.globalAlpha = 0.85;
      ctx.lineWidth = line.width;
      ctx.beginPath();
      ctx.moveTo(line.begin.x, line.begin.y);
      ctx.lineTo(line.end.x, line.end.y);
      ctx.stroke();
      // Their finger: a ring where the line ends.
      ctx.globalAlpha = 0.35;
      ctx.beginPath();
      ctx.arc(line.end.x, line.end.y, 14 / zoom, 0, Math.PI * 2); // a finger's size on screen, at any zoom
      ctx.fill();
    }
  }
  ctx.globalAlpha = 1;
}
