import NIOConcurrencyHelpers
import NIOCore

/// What is waiting to be written to one live client, bounded: whoever
/// sends to a client (the room, for every client at once) only appends
/// here and never waits for the socket, so a slow reader stalls no one.
///
/// Lines in progress are coalesced: a `presence` or `leave` of a peer
/// replaces the one of the same peer still queued (in its place), so
/// what a slow reader is owed of them is one message per peer, the newest.
///
/// Past `LiveLimits.queuedMessages` messages or `queuedBytes` bytes (a
/// single message larger than that is let through alone) the client is
/// behind: every queued message but the peers' presence is dropped, the
/// outbox refuses everything but presence, and `onOverflow` runs once
/// (outside any lock of the outbox). Its room then unjoins the client and
/// `resume`s the outbox with a `reset`: the client reads the document and
/// says `hello` again, instead of the server holding what it could not take.
final class LiveOutbox: Sendable {
  /// How the connection ends once what is queued is written.
  struct Close: Equatable, Sendable {
    var code: UInt16
    var reason: String
  }

  private struct State {
    var messages = CircularBuffer<String>()
    var bytes = 0
    /// How many messages the writer has taken so far: `messages[i]` is
    /// message number `taken + i`.
    var taken = 0
    /// The number of the queued `presence` or `leave` of each peer.
    var peers: [String: Int] = [:]
    /// Overflowed, and not resumed yet: only presence is taken.
    var behind = false
    var waiter: CheckedContinuation<Void, Never>?
    /// Set when nothing more is taken: a close to send after the queue, or
    /// nil for "the connection is gone, drop everything".
    var finished: Close?? = nil
    var takesBatches = false
    var saidHello = false

    /// Empties the queue but the peers' presence, which keeps its order.
    mutating func dropAllButPresence() {
      let kept = peers.sorted { $0.value < $1.value }.map {
        ($0.key, messages[messages.index(messages.startIndex, offsetBy: $0.value - taken)])
      }
      taken += messages.count
      messages.removeAll(keepingCapacity: true)
      bytes = 0
      peers = [:]
      for (peer, text) in kept {
        peers[peer] = taken + messages.count
        messages.append(text)
        bytes += text.utf8.count
      }
    }

    mutating func append(_ text: String) {
      messages.append(text)
      bytes += text.utf8.count
    }
  }

  private let state = NIOLockedValueBox(State())

  /// The client said `"batches": true` in its hello: the writer may put
  /// several queued messages in one frame.
  var takesBatches: Bool {
    get { state.withLockedValue { $0.takesBatches } }
    set { state.withLockedValue { $0.takesBatches = newValue } }
  }
  /// The client's `hello` was accepted (`LiveLimits.helloDeadline`).
  var saidHello: Bool {
    get { state.withLockedValue { $0.saidHello } }
    set { state.withLockedValue { $0.saidHello = newValue } }
  }
  /// Overflowed and not `resume`d yet.
  var isBehind: Bool { state.withLockedValue { $0.behind } }
  /// What is queued: messages and bytes (tests, and the bound's checks).
  var queued: (messages: Int, bytes: Int) { state.withLockedValue { ($0.messages.count, $0.bytes) } }
  private let limits: LiveLimits
  private let onOverflow: @Sendable (LiveOutbox) -> Void

  init(limits: LiveLimits, onOverflow: @escaping @Sendable (LiveOutbox) -> Void) {
    self.limits = limits
    self.onOverflow = onOverflow
  }

  /// Queues `message`; false if the outbox is finished, behind, or just overflowed.
  @discardableResult
  func send(_ message: ServerMessage) -> Bool {
    switch message {
    case .presence(let by, _), .leave(let by): send(text: message.text, of: by)
    default: send(text: message.text)
    }
  }

  /// Queues a message already encoded: what a room sends to every member
  /// is encoded once, not once per member (100 clients, 100 encodings).
  /// `peer`: the message is that peer's `presence` or `leave`, which
  /// replaces the one of that peer still queued, and is taken when behind.
  @discardableResult
  func send(text: String, of peer: String? = nil) -> Bool {
    let (accepted, overflowed, waiter) = state.withLockedValue {
      state -> (Bool, Bool, CheckedContinuation<Void, Never>?) in
      guard state.finished == nil else { return (false, false, nil) }
      let bytes = text.utf8.count
      if let peer, let number = state.peers[peer] {
        let index = state.messages.index(state.messages.startIndex, offsetBy: number - state.taken)
        state.bytes += bytes - state.messages[index].utf8.count
        state.messages[index] = text
        return (true, false, nil)  // the writer was told when the first one came
      }
      guard peer != nil || !state.behind else { return (false, false, nil) }
      var overflowed = false
      if state.messages.count >= limits.queuedMessages
        || (!state.messages.isEmpty && state.bytes + bytes > limits.queuedBytes)
      {
        guard !state.behind else {
          // Only presence is queued: one message per peer, bounded by the room.
          state.peers[peer!] = state.taken + state.messages.count
          state.append(text)
          return (true, false, nil)
        }
        state.behind = true
        state.dropAllButPresence()
        overflowed = true
        guard peer != nil else { return (false, true, nil) }
      }
      if let peer { state.peers[peer] = state.taken + state.messages.count }
      state.append(text)
      defer { state.waiter = nil }
      return (true, overflowed, state.waiter)
    }
    waiter?.resume()
    if overflowed { onOverflow(self) }
    return accepted
  }

  /// Ends `behind`: queues `reset` (the room's, with the revision it knows)
  /// and takes every message again. False if the outbox is finished.
  @discardableResult
  func resume(with reset: ServerMessage) -> Bool {
    let (accepted, waiter) = state.withLockedValue { state -> (Bool, CheckedContinuation<Void, Never>?) in
      guard state.finished == nil else { return (false, nil) }
      state.behind = false
      state.append(reset.text)
      defer { state.waiter = nil }
      return (true, state.waiter)
    }
    waiter?.resume()
    return accepted
  }

  /// Takes nothing more; what is queued is still written, then `close`.
  /// Nil `close`: the connection is gone, the queue is dropped.
  func finish(_ close: Close?) {
    let waiter = state.withLockedValue { state -> CheckedContinuation<Void, Never>? in
      if state.finished == nil { state.finished = .some(close) }
      if close == nil {
        state.finished = .some(nil)
        state.taken += state.messages.count
        state.messages.removeAll()
        state.bytes = 0
        state.peers = [:]
      }
      defer { state.waiter = nil }
      return state.waiter
    }
    waiter?.resume()
  }

  /// How much `next` hands the writer at once: `LiveConnection.batchBytes`, a frame.
  static let takenBytes = 64 * 1024

  /// What to write next.
  enum Next {
    case messages([String])
    case close(Close)
    case end
  }

  /// What is queued, up to `takenBytes` (waiting until there is something), or how to end.
  /// One reader only: the connection's writer.
  func next() async -> Next {
    while true {
      let next = state.withLockedValue { state -> Next? in
        if !state.messages.isEmpty {
          // At most a frame's worth (one message at least): the rest stays
          // here, where it counts against the bound and can be dropped,
          // not in the writer while the socket is full.
          var messages: [String] = []
          var bytes = 0
          while let first = state.messages.first, messages.isEmpty || bytes + first.utf8.count <= Self.takenBytes {
            bytes += first.utf8.count
            messages.append(state.messages.removeFirst())
          }
          state.taken += messages.count
          state.bytes -= bytes
          if state.messages.isEmpty {
            state.peers = [:]
          } else if !state.peers.isEmpty {
            let taken = state.taken
            state.peers = state.peers.filter { $0.value >= taken }
          }
          return .messages(messages)
        }
        switch state.finished {
        case .none: return nil
        case .some(.none): return .end
        case .some(.some(let close)): return .close(close)
        }
      }
      if let next { return next }
      await withCheckedContinuation { continuation in
        let ready = state.withLockedValue { state in
          guard state.messages.isEmpty, state.finished == nil else { return true }
          state.waiter = continuation
          return false
        }
        if ready { continuation.resume() }
      }
    }
  }
}

/// The limits of DESIGN.md "Live sync over WebSocket", in one place so that
/// tests can make them small.
struct LiveLimits: Sendable {
  /// The largest message a client may send.
  var messageBytes = 1024 * 1024
  /// Messages a second per connection, and the burst above it.
  var messageRate = 200.0
  var messageBurst = 400.0
  /// Presence messages relayed a second per connection; the rest are dropped.
  var presenceRate = 30.0
  var presenceBurst = 30.0
  /// A client's send queue (presence aside: one a peer): past it the
  /// client is sent `reset` and its queue dropped (`LiveOutbox`).
  var queuedMessages = 1000
  var queuedBytes = 4 * 1024 * 1024
  /// A backlog larger than this is not sent: the client gets `reset` and
  /// reads the document instead.
  var backlogMessages = 500
  var backlogBytes = 4 * 1024 * 1024
  /// How long a closing connection may take to write what it has queued
  /// before it is cut.
  var closeGrace: Duration = .seconds(2)
  /// How long a connection may stay open without saying `hello`: one that
  /// never does learns nothing and holds a socket, so it is closed (1008).
  /// Long enough for a page to read a large drawing before its hello.
  var helloDeadline: Duration = .seconds(30)
  /// Rooms of at least this many connections pace their writers: each
  /// writes at most one frame (or one take of its queue) per `pace(members:)`,
  /// carrying all that was queued meanwhile. A frame costs the server about
  /// the same whatever it carries (a wakeup, a write and a flush, a system
  /// call), and at 1,000 members every message is 999 of them; below this,
  /// frames go at once (rows 8 and 12 of BENCHMARKS.md: 2 and 100 clients).
  /// `TOUCHTRACKER_LIVE_PACED_MEMBERS` sets it (benchmarks compare with
  /// pacing off by setting it past the room's size).
  var pacedMembers = LiveLimits.environmentPacedMembers ?? 200
  /// The pause at `pacedMembers`, and the most it grows to with members.
  var paceLeast: Duration = .milliseconds(10)
  var paceMost: Duration = .milliseconds(25)

  /// How long a writer of a room of `members` waits after a frame before it
  /// takes the next: nil below `pacedMembers`. 25 µs a member (10 ms at 400,
  /// 25 ms at 1,000) within `paceLeast...paceMost`: what a message may wait
  /// grows with the room, as does what a frame saves.
  func pace(members: Int) -> Duration? {
    guard members >= pacedMembers else { return nil }
    return min(max(.microseconds(25) * members, paceLeast), paceMost)
  }
}
