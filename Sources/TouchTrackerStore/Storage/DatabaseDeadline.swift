import Foundation

/// How long a store waits for its database server before it answers
/// `DrawingStoreError.unavailable`: a server that is down, or stopped with
/// its connections open (they hang rather than refuse), is said within
/// `limit` instead of after the pool's and the kernel's own timeouts.
///
/// The call itself goes on to its end in a task of its own: it is never
/// cut off between its statements, so a write either commits or does not,
/// as if its connection had been lost. That is why the error does not say
/// "nothing was stored": a write answered this way may commit later, and
/// the client sends it again with the same idempotency key, which appends
/// nothing the second time (the key is recorded in the write's own
/// transaction, and both hold the drawing's lock).
///
/// Once a call has passed its deadline the database is known not to answer
/// (`stall`): until `probe` (a trivial query, tried one at a time, each
/// within `limit`) or any call answers, new calls fail at once without
/// being tried. So requests queued behind one another (writes to one
/// drawing take turns) are answered together instead of `limit` apart, no
/// work piles up for the moment the database is back, and `/healthz`
/// answers at once.
public final class DatabaseDeadline: @unchecked Sendable {
  /// How long a call may wait for the database.
  public let limit: Duration
  private let location: String
  private let probe: @Sendable () async throws -> Void
  private let lock = NSLock()
  private var stalledSince: ContinuousClock.Instant?
  private var probing = false

  /// The default `limit`: a request answers 503 about this long after its
  /// database stops answering.
  public static let defaultLimit = Duration.seconds(2)

  public init(limit: Duration = defaultLimit, location: String, probe: @escaping @Sendable () async throws -> Void) {
    self.limit = limit
    self.location = location
    self.probe = probe
  }

  /// Why the database is known not to answer now (a call passed its
  /// deadline, and nothing has answered since), or nil.
  public var stall: String? {
    lock.withLock { stalledSince.map { "no answer for \(Self.seconds(ContinuousClock.now - $0 + limit))" } }
  }

  /// `body`'s answer, or `DrawingStoreError.unavailable` once `limit` has
  /// passed without one (`body` then goes on in the background), or at once
  /// while the database is known not to answer.
  public func run<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) async throws -> T {
    if let stall {
      startProbing()
      throw DrawingStoreError.unavailable(location: location, reason: stall)
    }
    return try await race(body)
  }

  private func race<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) async throws -> T {
    let race = Race<T>()
    return try await withCheckedThrowingContinuation { continuation in
      race.start(continuation)
      let timer = Task { [limit, location] in
        try await Task.sleep(for: limit)
        let late = DrawingStoreError.unavailable(location: location, reason: "no answer within \(Self.seconds(limit))")
        if race.finish(.failure(late)) {
          lock.withLock { stalledSince = stalledSince ?? .now }
          startProbing()
        }
      }
      Task {
        let result: Result<T, any Error>
        do {
          result = .success(try await body())
        } catch {
          result = .failure(error)
        }
        timer.cancel()
        _ = race.finish(result)
        // An answer, even late or an error, is the database answering.
        lock.withLock { stalledSince = nil }
      }
    }
  }

  /// Tries `probe` until the database answers (one at a time, each within
  /// `limit`); a probe past its deadline goes on like any call, and its
  /// late answer also ends the stall.
  private func startProbing() {
    let starts = lock.withLock {
      defer { probing = true }
      return !probing
    }
    guard starts else { return }
    Task {
      while lock.withLock({ stalledSince != nil }) {
        do {
          try await race(probe)
        } catch {
          try? await Task.sleep(for: limit / 4)
        }
      }
      lock.withLock { probing = false }
    }
  }

  /// "2 s", "0.25 s".
  static func seconds(_ duration: Duration) -> String {
    let (seconds, attoseconds) = duration.components
    let milliseconds = Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000)
    return milliseconds % 1000 == 0 ? "\(milliseconds / 1000) s" : "\(Double(milliseconds) / 1000) s"
  }
}

/// One continuation, resumed by whichever of the call and its deadline
/// comes first.
private final class Race<T: Sendable>: @unchecked Sendable {
  private let lock = NSLock()
  private var continuation: CheckedContinuation<T, any Error>?

  func start(_ continuation: CheckedContinuation<T, any Error>) {
    lock.withLock { self.continuation = continuation }
  }

  /// Resumes the caller with `result` if nothing did yet; whether it did.
  func finish(_ result: Result<T, any Error>) -> Bool {
    let continuation = lock.withLock {
      defer { self.continuation = nil }
      return self.continuation
    }
    continuation?.resume(with: result)
    return continuation != nil
  }
}
