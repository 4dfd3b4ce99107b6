import Foundation
import ServiceLifecycle

/// Ends the process if a graceful shutdown takes longer than `limit`.
///
/// The service group cancels the server after its own grace period, but a
/// cancelled task still waits for work that ignores cancellation (a decode on
/// the thread pool, a write to a client that reads nothing). This is the
/// bound that holds whatever clients do: a thread, not a task, so no stuck
/// executor can delay it.
struct ShutdownDeadline: Service {
  let limit: Duration

  func run() async throws {
    do {
      try await gracefulShutdown()
    } catch {
      return  // Cancelled, not shutting down gracefully: nothing to bound.
    }
    let limit = limit
    Thread.detachNewThread {
      Thread.sleep(forTimeInterval: Double(limit.components.seconds) + Double(limit.components.attoseconds) / 1e18)
      FileHandle.standardError.write(Data("Shutdown did not finish within \(limit); exiting now\n".utf8))
      exit(1)
    }
  }
}
