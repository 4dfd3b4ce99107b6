import Foundation
import Testing
import TouchTrackerCore

@testable import TouchTrackerStore

/// A store backend the store suite runs against: every `@Test(arguments:
/// StoreBackend.available)` runs once per backend, so both pass the same
/// tests. SQLite-only tests (files, crashes, old schemas) open `DrawingStore`
/// themselves.
enum StoreBackend: String, Sendable, CustomTestStringConvertible {
  case sqlite

  var testDescription: String { rawValue }

  /// The backends of this run.
  static let available: [StoreBackend] = [.sqlite]

  /// Runs `body` with a fresh, empty database of this backend, removed
  /// afterwards; `open` opens a store on it, and again for a second store on
  /// the same database (as a second server process would).
  func withDatabase<T>(_ body: (StoreOpener) async throws -> T) async throws -> T {
    switch self {
    case .sqlite:
      return try await withTemporaryDirectory { directory in
        let path = directory.appendingPathComponent("a.sqlite").path
        return try await body(
          StoreOpener { compaction, now in try DrawingStore(path: path, compaction: compaction, now: now) })
      }
    }
  }
}

/// Opens stores on one test's database.
struct StoreOpener: Sendable {
  let open: @Sendable (CompactionPolicy, @escaping @Sendable () -> Date) async throws -> any StoreTestHooks

  func callAsFunction(
    compaction: CompactionPolicy = .automatic, now: @escaping @Sendable () -> Date = { Date() }
  ) async throws -> any StoreTestHooks {
    try await open(compaction, now)
  }
}

/// A literal for raw test SQL that both backends read the same way.
func sqlLiteral(_ text: String) -> String {
  "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
}
