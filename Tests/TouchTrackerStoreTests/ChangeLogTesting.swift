import Foundation
import GRDB
import Testing
import TouchTrackerCore

@testable import TouchTrackerStore

/// What the change-log suites share: a store that compacts only when told,
/// shapes and changes by id, and the log as stored.
protocol ChangeLogTesting {}

extension ChangeLogTesting {
  static var name: DrawingName { try! DrawingName("d") }

  static func line(_ id: UInt64, x: Double = 1) -> Line {
    Line(id: ShapeID(rawValue: id), begin: Point(x: x, y: 2), end: Point(x: 3, y: 4))
  }

  static func add(_ ids: UInt64...) -> Change {
    .add(lines: ids.map { line($0) }, circles: [], at: nil)
  }

  static func circle(_ id: UInt64) -> Circle {
    Circle(id: ShapeID(rawValue: id), center: Point(x: 5, y: 5), radius: 2)
  }

  /// A store that compacts only when told.
  static func withStore<T>(_ body: (DrawingStore, String) async throws -> T) async throws -> T {
    try await withTemporaryDirectory { directory in
      let path = directory.appendingPathComponent("a.sqlite").path
      return try await body(try DrawingStore(path: path, compaction: .manual, now: DrawingStoreTests.clock), path)
    }
  }

  static func applied(_ changes: [Change], to drawing: Drawing = Drawing()) -> Drawing {
    var drawing = drawing
    for change in changes { drawing.apply(change) }
    return drawing
  }

  static func document(_ drawing: Drawing) -> String { DocumentCoder.encodeString(drawing) }

  static func text(_ document: StoredDocument?) -> String? {
    document.map { String(decoding: $0.json, as: UTF8.self) }
  }

  /// The log's state as stored: (snapshotRevision, log rows).
  static func log(of store: DrawingStore, _ name: DrawingName = try! DrawingName("d")) async throws -> (Int, [Int]) {
    try await store.database.read { db in
      let snapshot = try Int.fetchOne(
        db, sql: "SELECT snapshotRevision FROM drawing WHERE name = ?", arguments: [name.rawValue])
      let rows = try Int.fetchAll(
        db, sql: "SELECT revision FROM drawingChange WHERE name = ? ORDER BY revision", arguments: [name.rawValue])
      return (snapshot ?? -1, rows)
    }
  }
}
