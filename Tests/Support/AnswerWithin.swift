import Foundation

/// What `body` answered, or nil if it had not answered after `limit`: for
/// tests of calls that must not hang, which fail (rather than hang with
/// them) when one does. `body` runs in a task of its own, left running if
/// it is late: a call stuck on a socket may not heed cancellation.
public func answer<T: Sendable>(
  within limit: Duration, _ body: @escaping @Sendable () async throws -> T
) async -> Result<T, any Error>? {
  let first = FirstAnswer<T>()
  return await withCheckedContinuation { continuation in
    first.start(continuation)
    let timer = Task {
      try? await Task.sleep(for: limit)
      first.give(nil)
    }
    Task {
      let result: Result<T, any Error>
      do {
        result = .success(try await body())
      } catch {
        result = .failure(error)
      }
      timer.cancel()
      first.give(result)
    }
  }
}

private final class FirstAnswer<T: Sendable>: @unchecked Sendable {
  private let lock = NSLock()
  private var continuation: CheckedContinuation<Result<T, any Error>?, Never>?

  func start(_ continuation: CheckedContinuation<Result<T, any Error>?, Never>) {
    lock.withLock { self.continuation = continuation }
  }

  func give(_ answer: Result<T, any Error>?) {
    let continuation = lock.withLock { () -> CheckedContinuation<Result<T, any Error>?, Never>? in
      defer { self.continuation = nil }
      return self.continuation
    }
    continuation?.resume(returning: answer)
  }
}
