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

  /// A store of `backend` that compacts only when told, on a fresh
  /// database; `open` opens another on the same database.
  static func withStore<T>(
    _ backend: StoreBackend, _ body: (any StoreTestHooks, StoreOpener) async throws -> T
  ) async throws -> T {
    try await backend.withDatabase { open in
      try await body(try await open(compaction: .manual, now: DrawingStoreTests.clock), open)
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
  static func log(of store: any DrawingStorage, _ name: DrawingName = try! DrawingName("d")) async throws -> (
    Int, [Int]
  ) {
    let store = store as! any StoreTestHooks
    let snapshot = try await store.integersForTesting(
      "SELECT snapshotRevision FROM drawing WHERE name = \(sqlLiteral(name.rawValue))")
    let rows = try await store.integersForTesting(
      "SELECT revision FROM drawingChange WHERE name = \(sqlLiteral(name.rawValue)) ORDER BY revision")
    return (snapshot.first ?? -1, rows)
  }
}
