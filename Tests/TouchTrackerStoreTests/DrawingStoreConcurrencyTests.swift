import Foundation
import Testing
import TouchTrackerCore
import TouchTrackerStore

@Suite struct DrawingStoreConcurrencyTests {
  /// What one writer saw: the revisions its saves were acknowledged with.
  struct Outcome: Sendable {
    var acknowledged: [Int] = []
    var conflicts = 0
  }

  /// Each writer loads the drawing, adds a line and saves with the revision it
  /// loaded, like a browser tab. Every acknowledged save adds exactly one line,
  /// so a lost update would show as a missing line.
  static func write(rounds: Int, to store: any DrawingStorage, name: DrawingName) async throws -> Outcome {
    var outcome = Outcome()
    for _ in 0..<rounds {
      let stored = try await store.load(name)
      var drawing = stored?.drawing ?? Drawing()
      drawing.lines.append(Line(begin: Point(x: 0, y: 0), end: Point(x: Double(drawing.lines.count), y: 1)))
      do {
        outcome.acknowledged.append(try await store.save(drawing, as: name, ifRevision: stored?.revision ?? 0))
      } catch DrawingStoreError.conflict {
        outcome.conflicts += 1
      }
    }
    return outcome
  }

  static func check(_ outcomes: [Outcome], in store: any DrawingStorage, name: DrawingName) async throws {
    let acknowledged = outcomes.flatMap(\.acknowledged).sorted()
    // Exactly one save won each revision, and no revision was skipped.
    #expect(acknowledged == Array(1...acknowledged.count))
    let stored = try #require(try await store.load(name))
    #expect(stored.revision == acknowledged.count)
    // Every acknowledged save's line is there: nothing was overwritten unseen.
    #expect(stored.drawing.lines.count == acknowledged.count)
    #expect(stored.drawing.lines.map(\.end.x) == (0..<acknowledged.count).map(Double.init))
    #expect(outcomes.map(\.conflicts).reduce(0, +) > 0, "the writers never raced; the test proves nothing")
  }

  @Test(arguments: StoreBackend.available)
  func ofManyTasksSavingTheSameRevisionExactlyOneWins(_ backend: StoreBackend) async throws {
    try await backend.withDatabase { open in
      let store = try await open()
      let name = try DrawingName("shared")
      let outcomes = try await withThrowingTaskGroup(of: Outcome.self) { group in
        for _ in 0..<8 { group.addTask { try await Self.write(rounds: 25, to: store, name: name) } }
        return try await group.reduce(into: []) { $0.append($1) }
      }
      try await Self.check(outcomes, in: store, name: name)
    }
  }

  /// Separate stores on one file stand for separate server processes: only
  /// the database's locking keeps them apart.
  @Test(arguments: StoreBackend.available)
  func ofWritersOnSeparateConnectionsExactlyOneWinsEachRevision(_ backend: StoreBackend) async throws {
    try await backend.withDatabase { open in
      var stores: [any DrawingStorage] = []
      for _ in 0..<4 { stores.append(try await open()) }
      let name = try DrawingName("shared")
      let outcomes = try await withThrowingTaskGroup(of: Outcome.self) { group in
        for index in 0..<8 {
          let store = stores[index % stores.count]
          group.addTask { try await Self.write(rounds: 25, to: store, name: name) }
        }
        return try await group.reduce(into: []) { $0.append($1) }
      }
      try await Self.check(outcomes, in: open(), name: name)
    }
  }
}
