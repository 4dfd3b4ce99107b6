import Foundation

/// Runs `body` on a thread of its own and waits for it without holding a
/// thread of Swift's cooperative pool.
///
/// For what blocks: waiting for a child process, reading its pipe. The
/// pool has as many threads as the machine has cores (two on CI), and the
/// servers that tests run in this process need them: a test that blocked
/// one while a child ran starved every live socket test beside it, whose
/// clients then hit their deadlines ("I/O on closed channel").
public func onAThreadOfItsOwn<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
  try await withCheckedThrowingContinuation { continuation in
    Thread.detachNewThread { continuation.resume(with: Result { try body() }) }
  }
}
