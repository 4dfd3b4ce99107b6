import Foundation
import GRDB
import NIOConcurrencyHelpers
import Testing
import TouchTrackerCore

@testable import TouchTrackerStore

/// The drawings list a page at a time (`list(_ query:)`), on every backend:
/// newest first, names breaking ties, a cursor that neither repeats nor
/// skips, search by name in any case, tombstones left out.
@Suite struct DrawingListPageTests {
  /// A clock the test sets: each drawing gets the time it is given, with
  /// microseconds (PostgreSQL keeps them, SQLite milliseconds).
  final class Clock: Sendable {
    private let time = NIOLockedValueBox(Date(timeIntervalSince1970: 1_800_000_000.123456))
    func set(_ seconds: Double) { time.withLockedValue { $0 = Date(timeIntervalSince1970: 1_800_000_000 + seconds) } }
    var now: @Sendable () -> Date { { [time] in time.withLockedValue { $0 } } }
  }

  static func withStore(
    _ backend: StoreBackend, _ body: (any StoreTestHooks, Clock) async throws -> Void
  ) async throws {
    let clock = Clock()
    try await backend.withDatabase { open in
      try await body(try await open(compaction: .manual, now: clock.now), clock)
    }
  }

  static func name(_ text: String) -> DrawingName { try! DrawingName(text) }

  /// Saves each name at its time (seconds after the clock's start).
  static func save(_ drawings: [(String, Double)], in store: any StoreTestHooks, clock: Clock) async throws {
    for (name, seconds) in drawings {
      clock.set(seconds)
      try await store.save(Drawing(lines: []), as: Self.name(name))
    }
  }

  /// Every page of `query` in turn, by its cursors; at most 100 pages.
  static func pages(of store: any StoreTestHooks, _ query: DrawingListQuery) async throws -> [[String]] {
    var query = query
    var pages: [[String]] = []
    for _ in 0..<100 {
      let page = try await store.list(query)
      pages.append(page.drawings.map(\.name.rawValue))
      guard let next = page.next else { return pages }
      query.after = next
    }
    Issue.record("More than 100 pages")
    return pages
  }

  @Test(arguments: StoreBackend.available)
  func pagesGoNewestFirstWithNamesBreakingTiesAndEndWithoutACursor(_ backend: StoreBackend) async throws {
    try await Self.withStore(backend) { store, clock in
      // Three at one time (b, c, d), across a page boundary; times a
      // microsecond and a millisecond apart.
      try await Self.save(
        [("a", 1.000_001), ("d", 2.5), ("b", 2.5), ("c", 2.5), ("e", 2.501), ("f", 0.000_001), ("g", 3)],
        in: store, clock: clock)
      let pages = try await Self.pages(of: store, DrawingListQuery(limit: 2))
      #expect(pages == [["g", "e"], ["b", "c"], ["d", "a"], ["f"]])
      // A page that ends exactly at the last drawing says there is no next.
      #expect(try await Self.pages(of: store, DrawingListQuery(limit: 7)) == [["g", "e", "b", "c", "d", "a", "f"]])
      let first = try await store.list(DrawingListQuery(limit: 1))
      #expect(first.drawings.first?.updatedAt == clock.now())
      #expect(first.next?.name == Self.name("g"))
    }
  }

  @Test(arguments: StoreBackend.available)
  func searchMatchesPartOfTheNameInAnyCaseAndPages(_ backend: StoreBackend) async throws {
    try await Self.withStore(backend) { store, clock in
      try await Self.save(
        [("Cat-1", 1), ("dog", 2), ("bobcat", 3), ("CATALOG_2", 4), ("x_y", 5), ("xay", 6)], in: store, clock: clock)
      #expect(
        try await Self.pages(of: store, DrawingListQuery(limit: 2, search: "cAt"))
          == [["CATALOG_2", "bobcat"], ["Cat-1"]])
      // `_` and `%` are plain characters, not patterns.
      #expect(try await Self.pages(of: store, DrawingListQuery(search: "_")) == [["x_y", "CATALOG_2"]])
      #expect(try await Self.pages(of: store, DrawingListQuery(search: "%")) == [[]])
      #expect(try await Self.pages(of: store, DrawingListQuery(search: "")).flatMap { $0 }.count == 6)
    }
  }

  @Test(arguments: StoreBackend.available)
  func aDrawingSavedBetweenPagesMovesToTheTopWithoutRepeatsOrSkipsAndTombstonesAreLeftOut(
    _ backend: StoreBackend
  ) async throws {
    try await Self.withStore(backend) { store, clock in
      try await Self.save([("a", 1), ("b", 2), ("c", 3), ("d", 4), ("e", 5)], in: store, clock: clock)
      let first = try await store.list(DrawingListQuery(limit: 2))
      #expect(first.drawings.map(\.name.rawValue) == ["e", "d"])
      // While the client looks at the first page: a is changed, c deleted.
      try await Self.save([("a", 6)], in: store, clock: clock)
      try await store.delete(Self.name("c"))
      let rest = try await Self.pages(of: store, DrawingListQuery(after: first.next, limit: 2))
      #expect(rest == [["b"]])
      #expect(try await Self.pages(of: store, DrawingListQuery(limit: 2)) == [["a", "e"], ["d", "b"]])
    }
  }

  /// SQLite reads a page as a range of the index `drawingByTime`, in its
  /// order: no scan of the table, no sort of every drawing.
  @Test(arguments: [nil, DrawingListCursor(updatedAt: 1_800_000_002_500_000, name: name("b"))])
  func sqliteReadsAPageFromTheIndexInItsOrder(after: DrawingListCursor?) async throws {
    try await withTemporaryDirectory { directory in
      let store = try SQLiteDrawingStore(path: directory.appendingPathComponent("a.sqlite").path)
      let (sql, arguments) = SQLiteDrawingStore.listStatement(DrawingListQuery(after: after, search: "a"))
      let plan = try await store.database.read { db in
        try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql, arguments: arguments).map { $0["detail"] as String }
      }
      #expect(plan.contains { $0.contains("USING INDEX drawingByTime") }, "\(plan)")
      #expect(!plan.contains { $0.contains("TEMP B-TREE") }, "\(plan)")
    }
  }

  @Test func cursorsReadBackAsWritten() throws {
    let cursor = try #require(DrawingListCursor("1800000002500000.sketch-1"))
    #expect(cursor == DrawingListCursor(updatedAt: 1_800_000_002_500_000, name: Self.name("sketch-1")))
    #expect(cursor.description == "1800000002500000.sketch-1")
    #expect(cursor.timestampText(fractionDigits: 6) == "2027-01-15 08:00:02.500000")
    #expect(cursor.timestampText(fractionDigits: 3) == "2027-01-15 08:00:02.500")
    for bad in ["", "sketch", "12", ".sketch", "-1.sketch", "1.bad name", "１.sketch", "9223372036854775808.a"] {
      #expect(DrawingListCursor(bad) == nil, "\(bad)")
    }
  }
}
