// The inspector's event-order log: each record as the book's log line, the
// rows shown in a list that appends what is new, keeps the newest in view
// until the person scrolls up to read, and shows one kind or matching words.

let number = 0; // each row's number, so the list appends only what is new
let shown = { number: -1, kinds: undefined, words: undefined }; // what the list holds
let following = true;
const els = {};

/** The next row's number. */
export const nextLogNumber = () => number++;

/** The record as the book's log line: the same words as `touchtracker replay --log`. */
export function recordText(r) {
  switch (r.kind) {
    case 'hit':
      return `touch ${r.touch.id} hit ${r.path[r.path.length - 1]} (${r.path.join(' > ')})${r.ignored ? ', ignored' : ''}`;
    case 'message':
      return `${r.method} [${r.touches.map((t) => t.id).join(', ')}]`;
    case 'state':
      return `${r.recognizer}: ${r.from} -> ${r.to}${r.cause ? ` (${r.cause})` : ''}`;
    case 'wait':
      return `${r.recognizer}: waits for ${r.for.join(', ')} to fail`;
    case 'held':
      return `touch ${r.touch} ${r.phase} held by ${r.by}`;
    case 'released':
      return `touch ${r.touch} ${r.phase} released`;
    case 'dropped':
      return `touch ${r.touch} ${r.phase} dropped`;
    case 'action':
      return `${r.action} from ${r.sender}: asked ${r.asked.join(', ')}, ${r.handler ? `${r.handler} performed it` : 'nobody performed it'}`;
    case 'firstResponder':
      return `first responder: ${r.from ?? 'none'} -> ${r.to ?? 'none'}`;
    default:
      return JSON.stringify(r);
  }
}

const FILTER_KINDS = {
  all: null,
  touches: ['hit', 'message'],
  recognizers: ['state', 'wait'],
  held: ['held', 'released', 'dropped'],
  actions: ['action', 'firstResponder'],
};

function logRow(entry) {
  const item = document.createElement('li');
  item.className = `log-${entry.kind}`;
  item.textContent = entry.text;
  item.title = `at ${entry.t.toFixed(3)} s`;
  item.dataset.number = entry.number;
  return item;
}

/** The log's rows: new ones appended, those past the limit taken from the top; all anew when the filter changes. */
export function renderLog(log) {
  const list = els.log;
  const kinds = FILTER_KINDS[els.kind.value];
  const words = els.filter.value.trim().toLowerCase();
  const shows = (entry) => (!kinds || kinds.includes(entry.kind)) && (!words || entry.text.toLowerCase().includes(words));
  const fresh = shown.kinds !== kinds || shown.words !== words;
  if (fresh) list.replaceChildren();
  const oldest = log[0]?.number ?? Infinity;
  while (list.firstElementChild && Number(list.firstElementChild.dataset.number) < oldest) list.firstElementChild.remove();
  const after = fresh ? -1 : shown.number;
  const start = log.findIndex((entry) => entry.number > after);
  if (start >= 0) list.append(...log.slice(start).filter(shows).map(logRow));
  shown = { number: log[log.length - 1]?.number ?? -1, kinds, words };
  if (following || fresh) list.scrollTop = list.scrollHeight;
}

/** Wires the list and its filter (`elements`: log, kind, filter); `log()` gives the rows. */
export function attachLog(elements, log) {
  Object.assign(els, elements);
  els.log.addEventListener('scroll', () => {
    following = els.log.scrollTop + els.log.clientHeight >= els.log.scrollHeight - 4;
  });
  els.filter.addEventListener('input', () => renderLog(log()));
  els.kind.addEventListener('change', () => renderLog(log()));
}
