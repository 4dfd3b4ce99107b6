import NIOConcurrencyHelpers
import NIOCore

/// An async mutex: bodies run one at a time, in the order they asked.
///
/// Why not an actor: an actor lets another call in whenever the running
/// one awaits (the store's commit, here), and what the live room needs is
/// exactly that nothing else happens to a drawing between its commit and
/// its broadcast.
final class SerialGate: Sendable {
  private struct State {
    var isLocked = false
    var waiters = CircularBuffer<CheckedContinuation<Void, Never>>()
  }

  private let state = NIOLockedValueBox(State())

  func run<T>(_ body: () async throws -> T) async rethrows -> T {
    await acquire()
    defer { release() }
    return try await body()
  }

  private func acquire() async {
    let acquired = state.withLockedValue { state in
      guard !state.isLocked else { return false }
      state.isLocked = true
      return true
    }
    guard !acquired else { return }
    await withCheckedContinuation { continuation in
      let now = state.withLockedValue { state in
        guard state.isLocked else {
          state.isLocked = true
          return true
        }
        state.waiters.append(continuation)
        return false
      }
      if now { continuation.resume() }
    }
  }

  /// Hands the gate to the next waiter, still locked, or unlocks it.
  private func release() {
    let next = state.withLockedValue { state in
      guard !state.waiters.isEmpty else {
        state.isLocked = false
        return nil as CheckedContinuation<Void, Never>?
      }
      return state.waiters.removeFirst()
    }
    next?.resume()
  }
}
