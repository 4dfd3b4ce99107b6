import NIOConcurrencyHelpers
import NIOCore

/// What is waiting to be written to one live client, bounded: whoever
/// sends to a client (the room, for every client at once) only appends
/// here and never waits for the socket, so a slow reader stalls no one.
///
/// Past `LiveLimits.queuedMessages` messages or `queuedBytes` bytes (a
/// single message larger than that is let through alone) the client is
/// too slow: the outbox refuses everything after and `onOverflow` runs
/// once, which closes the connection.
final class LiveOutbox: Sendable {
  /// How the connection ends once what is queued is written.
  struct Close: Equatable, Sendable {
    var code: UInt16
    var reason: String
  }

  private struct State {
    var messages = CircularBuffer<String>()
    var bytes = 0
    var waiter: CheckedContinuation<Void, Never>?
    /// Set when nothing more is taken: a close to send after the queue, or
    /// nil for "the connection is gone, drop everything".
    var finished: Close?? = nil
    var takesBatches = false
    var saidHello = false
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
  private let limits: LiveLimits
  private let onOverflow: @Sendable () -> Void

  init(limits: LiveLimits, onOverflow: @escaping @Sendable () -> Void) {
    self.limits = limits
    self.onOverflow = onOverflow
  }

  /// Queues `message`; false if the outbox is finished or just overflowed.
  @discardableResult
  func send(_ message: ServerMessage) -> Bool {
    send(text: message.text)
  }

  /// Queues a message already encoded: what a room sends to every member
  /// is encoded once, not once per member (100 clients, 100 encodings).
  @discardableResult
  func send(text: String) -> Bool {
    let (accepted, overflowed, waiter) = state.withLockedValue {
      state -> (Bool, Bool, CheckedContinuation<Void, Never>?) in
      guard state.finished == nil else { return (false, false, nil) }
      let bytes = text.utf8.count
      if state.messages.count >= limits.queuedMessages
        || (!state.messages.isEmpty && state.bytes + bytes > limits.queuedBytes)
      {
        state.finished = .some(nil)
        state.messages.removeAll()
        state.bytes = 0
        defer { state.waiter = nil }
        return (false, true, state.waiter)
      }
      state.messages.append(text)
      state.bytes += bytes
      defer { state.waiter = nil }
      return (true, false, state.waiter)
    }
    waiter?.resume()
    if overflowed { onOverflow() }
    return accepted
  }

  /// Takes nothing more; what is queued is still written, then `close`.
  /// Nil `close`: the connection is gone, the queue is dropped.
  func finish(_ close: Close?) {
    let waiter = state.withLockedValue { state -> CheckedContinuation<Void, Never>? in
      if state.finished == nil { state.finished = .some(close) }
      if close == nil {
        state.finished = .some(nil)
        state.messages.removeAll()
        state.bytes = 0
      }
      defer { state.waiter = nil }
      return state.waiter
    }
    waiter?.resume()
  }

  /// What to write next.
  enum Next {
    case messages([String])
    case close(Close)
    case end
  }

  /// Everything queued (waiting until there is something), or how to end.
  /// One reader only: the connection's writer.
  func next() async -> Next {
    while true {
      let next = state.withLockedValue { state -> Next? in
        if !state.messages.isEmpty {
          let messages = Array(state.messages)
          state.messages.removeAll(keepingCapacity: true)
          state.bytes = 0
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
  /// A client's send queue.
  var queuedMessages = 1000
  var queuedBytes = 8 * 1024 * 1024
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
}
