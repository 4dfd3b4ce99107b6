import Foundation

/// How many connections the server holds at once: the process's file
/// descriptor limit less a reserve.
///
/// Why: each connection is a descriptor. Past the limit `accept` fails, and
/// so does everything else that opens a file: SQLite's WAL and journal, the
/// web root's files. Stopping `accept` short of it keeps the database and the
/// connections already open working; new clients wait in the listen backlog
/// until the timeouts free a slot.
enum ConnectionLimit {
  /// Descriptors kept for everything that is not a connection: the
  /// database's files and pool, the listening socket, stdio, the web root.
  static let reserve = 64

  static func fromFileDescriptorLimit() -> Int {
    var limit = rlimit()
    guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 10_000 }
    // RLIM_INFINITY is the largest value, so `min` also covers "no limit".
    return max(16, Int(min(limit.rlim_cur, 1_000_000)) - reserve)
  }
}
