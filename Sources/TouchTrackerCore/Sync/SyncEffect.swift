/// What a `SyncClient` event leaves its host to do, in order.
public enum SyncEffect: Equatable, Sendable {
  // To the drawing, at once (the view keeps this person's unacknowledged changes on top).

  /// Others' changes, in the server's order: they go in beneath this person's.
  case receive([Change])
  /// The oldest `count` of this person's changes are in the server's log.
  case confirm(Int)
  /// The oldest `count` of this person's changes were in the drawing the
  /// view shows already: they are taken back, not applied twice.
  case withdraw(Int)
  /// This person's unacknowledged changes go on top of the drawing just opened.
  case restore([Change])

  // To this browser's copy.

  /// Appends an entry to the copy.
  case keep(SyncJournal.Entry)
  /// Writes the copy anew: the drawing without this person's unacknowledged
  /// changes as its base, at the client's revision, and `pendingJournal` after it.
  case rebase

  // To the server.

  /// Says hello on the socket, building on `since`.
  case hello(since: Int)
  /// Sends a batch (over the socket, or by `POST` with its key).
  case send(key: String, changes: [Change])
  /// Reads the server's drawing, then calls `replaced(revision:)`.
  case fetchDocument
  /// Reads `GET .../changes?since=`, then calls `pulled`.
  case pull(since: Int)

  // To the person.

  /// The drawing was replaced on the server; this person's `kept` changes went on top of it.
  case replaced(kept: Int)
}
