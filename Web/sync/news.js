// What sync has to tell the person, as events: sync/ shows nothing itself,
// ui/sync-status.js listens and says it (the banner, a notice). Each event's
// `detail` holds the facts, never the words:
//   - `status` {saver}: after every sync event and write of this browser's copy;
//   - `refused` {saver, reason}: the server will not take a change;
//   - `unreadable` {saver, problem}: the server's drawing cannot be opened;
//   - `renamed` {name}: the drawing goes by another name now;
//   - `replaced` {name, kept}: the drawing was read again, `kept` changes of this person's on top;
//   - `copies-unreadable` {message}: this browser's copies cannot be read;
//   - `copy-aside` {name, problem, text, shown}: this browser's copy could not be opened and
//     is kept aside (`text`, for download); `shown`: the server's drawing is shown instead.

export const syncNews = new EventTarget();

/** Sends event `type` with `detail` to whoever listens. */
export function tell(type, detail) {
  syncNews.dispatchEvent(new CustomEvent(type, { detail }));
}
