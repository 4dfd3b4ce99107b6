import Foundation
import Testing
import TouchTrackerTestSupport

@testable import TouchTrackerStore

/// `DatabaseDeadline` alone, with calls and a probe that answer only when
/// the test says: a late call is `unavailable` and starts a stall, during
/// which calls fail without being tried, until the probe answers.
@Suite struct DatabaseDeadlineTests {
  /// Calls that wait until `release`.
  final class Held: @unchecked Sendable {
    private let lock = NSLock()
    private var released = false
    private var waiting: [CheckedContinuation<Void, Never>] = []
    private(set) var tried = 0

    func wait() async {
      await withCheckedContinuation { continuation in
        let now = lock.withLock {
          tried += 1
          if !released { waiting.append(continuation) }
          return released
        }
        if now { continuation.resume() }
      }
    }

    func release() {
      let waiting = lock.withLock {
        released = true
        defer { self.waiting = [] }
        return self.waiting
      }
      for continuation in waiting { continuation.resume() }
    }

    var triedCount: Int { lock.withLock { tried } }
  }

  @Test func aLateCallIsUnavailableAndLaterCallsFailWithoutBeingTriedUntilTheProbeAnswers() async throws {
    let database = Held()
    let deadline = DatabaseDeadline(limit: .milliseconds(50), location: "postgres://db") { await database.wait() }
    #expect(deadline.stall == nil)
    let late = await answer(within: .seconds(10)) { try await deadline.run { await database.wait() } }
    #expect(throws: DrawingStoreError.unavailable(location: "postgres://db", reason: "no answer within 0.05 s")) {
      try #require(late).get()
    }
    #expect(deadline.stall?.hasPrefix("no answer for ") == true)
    let tried = Held()
    await #expect(throws: DrawingStoreError.self) { try await deadline.run { await tried.wait() } }
    #expect(tried.triedCount == 0)

    database.release()
    let recovered = await answer(within: .seconds(10)) {
      while deadline.stall != nil { try await Task.sleep(for: .milliseconds(5)) }
    }
    #expect(recovered != nil)
    #expect(try await deadline.run { 2 } == 2)
  }
}
