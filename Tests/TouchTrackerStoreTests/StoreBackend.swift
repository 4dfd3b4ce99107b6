import Foundation
import Testing
import TouchTrackerCore

@testable import TouchTrackerStore

/// A store backend the store suite runs against: every `@Test(arguments:
/// StoreBackend.available)` runs once per backend, so both pass the same
/// tests. SQLite-only tests (files, crashes, old schemas) open `SQLiteDrawingStore`
/// themselves.
enum StoreBackend: String, Sendable, CustomTestStringConvertible {
  case sqlite
  case postgres

  var testDescription: String { rawValue }

  /// The environment variable naming the PostgreSQL server of the tests
  /// (`Scripts/test.sh` starts one: `Scripts/postgres.sh`).
  static let postgresVariable = "TOUCHTRACKER_TEST_POSTGRES_URL"

  /// The backends of this run: SQLite always; PostgreSQL when
  /// `TOUCHTRACKER_TEST_POSTGRES_URL` is set. Set, it must reach a server:
  /// a test that cannot create its database fails, it is not skipped.
  static let available: [StoreBackend] = {
    guard ProcessInfo.processInfo.environment[postgresVariable] != nil else {
      FileHandle.standardError.write(
        Data(
          "note: \(postgresVariable) is not set: the store suite runs against SQLite only (Scripts/test.sh sets it)\n"
            .utf8))
      return [.sqlite]
    }
    return [.sqlite, .postgres]
  }()

  /// Runs `body` with a fresh, empty database of this backend, removed
  /// afterwards; `open` opens a store on it, and again for a second store on
  /// the same database (as a second server process would).
  func withDatabase<T>(_ body: (StoreOpener) async throws -> T) async throws -> T {
    switch self {
    case .sqlite:
      return try await withTemporaryDirectory { directory in
        let path = directory.appendingPathComponent("a.sqlite").path
        return try await body(
          StoreOpener { compaction, now in try SQLiteDrawingStore(path: path, compaction: compaction, now: now) })
      }
    case .postgres:
      return try await withPostgresDatabase { url in
        let opened = OpenedStores()
        do {
          let result = try await body(
            StoreOpener { compaction, now in
              // A busy machine's allowance for each answer: the 2 s a server
              // gives its database is what DatabaseOutageTests test.
              let store = try await PostgresDrawingStore(
                url: url, compaction: compaction, maximumConnections: 4, timeout: .seconds(60), now: now)
              opened.add(store)
              return store
            })
          await opened.closeAll()
          return result
        } catch {
          await opened.closeAll()
          throw error
        }
      }
    }
  }
}

/// Runs `body` with the URL of a new, empty PostgreSQL database on the
/// server of `TOUCHTRACKER_TEST_POSTGRES_URL`, dropped afterwards. A server
/// that cannot be reached fails the test (`cannotOpen` names it).
func withPostgresDatabase<T>(_ body: (PostgresURL) async throws -> T) async throws -> T {
  let text = try #require(
    ProcessInfo.processInfo.environment[StoreBackend.postgresVariable], "\(StoreBackend.postgresVariable) is not set")
  let server = try PostgresURL(text)
  let name = "tt_test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
  try await server.createDatabase(name)
  do {
    let result = try await body(server.with(database: name))
    try await server.dropDatabase(name)
    return result
  } catch {
    try? await server.dropDatabase(name)
    throw error
  }
}

/// The PostgreSQL stores a test opened, closed at its end.
final class OpenedStores: @unchecked Sendable {
  private let lock = NSLock()
  private var stores: [PostgresDrawingStore] = []

  func add(_ store: PostgresDrawingStore) { lock.withLock { stores.append(store) } }

  func closeAll() async {
    for store in lock.withLock({ stores }) { await store.close() }
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
