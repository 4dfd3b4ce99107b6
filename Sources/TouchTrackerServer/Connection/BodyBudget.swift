import NIOConcurrencyHelpers

/// The bytes of request bodies the server holds at once, across every
/// request: each body is counted from the moment it is read (its whole
/// `Content-Length` at once, a chunked body chunk by chunk) until its
/// handler has finished with it (decoded and stored). A body that does not
/// fit beside the others is refused (503 with `Retry-After`) before it is
/// read; one larger than the whole budget is refused (413) whatever else is
/// in flight.
///
/// Why: a body is held in memory while it is decoded, and a large document
/// decodes into lines of about its own size again; ten 212 MB `PUT`s at
/// once took the server to 4 GB. With the budget, the memory of bodies in
/// flight is at most about twice the budget, whatever clients send.
final class BodyBudget: Sendable {
  /// The bytes that may be in flight at once.
  let limit: Int
  private let used = NIOLockedValueBox(0)

  init(limit: Int) {
    self.limit = limit
  }

  /// The bytes counted now.
  var inUse: Int { used.withLockedValue { $0 } }

  /// Counts `bytes` if they fit beside what is counted; false if not.
  func reserve(_ bytes: Int) -> Bool {
    used.withLockedValue { used in
      guard bytes <= limit - used else { return false }
      used += bytes
      return true
    }
  }

  func release(_ bytes: Int) {
    guard bytes > 0 else { return }
    used.withLockedValue { $0 -= bytes }
  }
}
