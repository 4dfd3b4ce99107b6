import GRDB

/// What a failure of SQLite itself means, in words for a client: the disk
/// full, a damaged page in the file, an I/O error. The server names the
/// drawing and says this instead of a bare "Internal server error"; the
/// full error (with its SQL) stays in the server's log.
public enum DatabaseProblem {
  /// The sentence for `error`, or nil if it is not SQLite's.
  public static func sentence(for error: any Error) -> String? {
    guard let error = error as? DatabaseError else { return nil }
    let detail = error.message.map { " (SQLite: \($0))" } ?? ""
    switch error.resultCode {
    case .SQLITE_FULL: return "the server's disk is full\(detail)"
    case .SQLITE_CORRUPT, .SQLITE_NOTADB: return "the database file is damaged\(detail)"
    case .SQLITE_IOERR: return "the disk could not be read or written\(detail)"
    case .SQLITE_READONLY, .SQLITE_PERM: return "the database file cannot be written\(detail)"
    case .SQLITE_BUSY, .SQLITE_LOCKED: return "the database file is locked by another process\(detail)"
    default: return "the database failed\(detail)"
    }
  }
}
