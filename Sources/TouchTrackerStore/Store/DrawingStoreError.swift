/// Why a store could not be opened, or would not save or delete.
public enum DrawingStoreError: Error, Hashable, Sendable, CustomStringConvertible {
  /// A save, append or delete expected another revision. A drawing that
  /// does not exist (never saved, or deleted) is at revision 0.
  case conflict(name: String, expected: Int, current: Int)
  /// The file is not a database, is damaged, or cannot be created.
  case cannotOpen(path: String, reason: String)
  /// A stored document or change no longer matches the checksum written with it.
  case damaged(name: String)
  /// A stored document or change that matches its checksum but cannot be
  /// read or replayed (written by a newer version, say).
  case unreadable(name: String, reason: String)
  /// The changes after `since` are no longer in the log: compacted into the
  /// snapshot at `snapshotRevision`, or never there (`since` is ahead of
  /// the drawing's `current` revision). The client reads the document.
  case changesGone(name: String, since: Int, snapshotRevision: Int, current: Int)
  /// A database URL that cannot be used (`touchtracker serve --database postgres://…`).
  case badURL(url: String, reason: String)
  /// The database server could not be reached, failed the request or did
  /// not answer in time (PostgreSQL down or stopped, the connection lost).
  /// A write that failed so may still commit: send it again with the same
  /// idempotency key.
  case unavailable(location: String, reason: String)
  /// A rename to a name that a drawing has already (never overwritten).
  case nameTaken(name: String)

  public var description: String {
    switch self {
    case .conflict(let name, let expected, 0):
      "Drawing '\(name)' does not exist, expected revision \(expected)"
    case .conflict(let name, let expected, let current):
      "Drawing '\(name)' is at revision \(current), not \(expected)"
    case .nameTaken(let name):
      "A drawing named '\(name)' already exists: choose another name"
    case .badURL(let url, let reason):
      "Invalid database URL '\(url)': \(reason)"
    case .unavailable(let location, let reason):
      "The database '\(location)' is unavailable: \(reason)"
    case .cannotOpen(let path, let reason):
      "Cannot open database '\(path)': \(reason)"
    case .damaged(let name):
      "Drawing '\(name)' is damaged in the database (its checksum does not match); it is not served"
    case .unreadable(let name, let reason):
      "Drawing '\(name)' cannot be read from the database: \(reason)"
    case .changesGone(let name, let since, _, let current) where since > current:
      "Drawing '\(name)' is at revision \(current), behind \(since); read the whole document"
    case .changesGone(let name, let since, let snapshotRevision, _):
      "The changes of drawing '\(name)' after revision \(since) were compacted into its document"
        + " (at revision \(snapshotRevision)); read the whole document"
    }
  }
}
