import NIOConcurrencyHelpers
import NIOCore

/// The connections that are waiting for a request head (new, slow, or idle
/// between keep-alive requests), shared by all of them; past `capacity`, the
/// one that has waited longest is closed.
///
/// Why: the header timeout alone lets an attacker hold every connection slot
/// for its whole length (10 s), again and again, and a client queued behind
/// them in the listen backlog waits for two or three rounds. Connections that
/// have sent nothing useful are the cheapest to drop, and the oldest of them
/// is the least likely to be a person about to send a request.
final class WaitingConnections: Sendable {
  private struct Entry: Sendable {
    var channel: any Channel
    var since: NIODeadline
  }

  let capacity: Int
  private let entries = NIOLockedValueBox<[ObjectIdentifier: Entry]>([:])

  init(capacity: Int) {
    self.capacity = max(1, capacity)
  }

  var count: Int { entries.withLockedValue { $0.count } }

  /// `channel` starts waiting for a head; may close the longest-waiting one.
  func add(_ channel: any Channel) {
    let evicted: (any Channel)? = entries.withLockedValue { entries in
      entries[ObjectIdentifier(channel)] = Entry(channel: channel, since: .now())
      guard entries.count > capacity, let oldest = entries.min(by: { $0.value.since < $1.value.since }) else {
        return nil
      }
      entries[oldest.key] = nil
      return oldest.value.channel
    }
    evicted?.close(promise: nil)
  }

  /// `channel` sent a head, or closed.
  func remove(_ channel: any Channel) {
    _ = entries.withLockedValue { $0.removeValue(forKey: ObjectIdentifier(channel)) }
  }
}
