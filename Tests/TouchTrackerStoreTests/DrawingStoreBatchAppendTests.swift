import Foundation
import Testing
import TouchTrackerCore

@testable import TouchTrackerStore

/// `append(batches:to:)`: several batches in one transaction, as the live
/// sync commits what arrived while the previous commit was being synced.
@Suite struct DrawingStoreBatchAppendTests: ChangeLogTesting {
  @Test(arguments: StoreBackend.available)
  func batchesGetConsecutiveRevisionsAndAKnownKeyIsAnsweredNotAppended(_ backend: StoreBackend) async throws {
    try await Self.withStore(backend) { store, _ in
      try await store.append([Self.add(1)], to: Self.name, key: "old")
      let results = try await store.append(
        batches: [
          ChangeBatch(changes: [Self.add(2), Self.add(3)], key: "a"),
          ChangeBatch(changes: [Self.add(1)], key: "old"),
          ChangeBatch(changes: [.deleteLine(ShapeID(rawValue: 1))], key: nil),
          ChangeBatch(changes: [Self.add(4)], key: "a"),
        ], to: Self.name)
      #expect(
        try results.map { try $0.get() } == [
          AppendedBatch(revision: 3, count: 2), AppendedBatch(revision: 1, count: 0),
          AppendedBatch(revision: 4, count: 1), AppendedBatch(revision: 3, count: 0),
        ])
      #expect(try await Self.log(of: store) == (0, [1, 2, 3, 4]))
      let changes = try #require(try await store.changes(of: Self.name, since: 0)).changes
      #expect(changes.map(\.batchKey) == ["old", "a", "a", nil])
    }
  }

  @Test(arguments: StoreBackend.available)
  func aRefusedBatchStoresNothingOfItselfAndTheOthersAreStored(_ backend: StoreBackend) async throws {
    try await Self.withStore(backend) { store, _ in
      let nan = Change.moveLine(ShapeID(rawValue: 1), begin: Point(x: .nan, y: 0), end: Point(x: 0, y: 0))
      let results = try await store.append(
        batches: [
          ChangeBatch(changes: [Self.add(1)], key: "a"),
          ChangeBatch(changes: [Self.add(2)], key: "b", expected: 0),
          ChangeBatch(changes: [nan], key: "c"),
          ChangeBatch(changes: [Self.add(3)], key: "d", expected: 1),
        ], to: Self.name)
      #expect(try results[0].get() == AppendedBatch(revision: 1, count: 0 + 1))
      #expect(throws: DrawingStoreError.conflict(name: "d", expected: 0, current: 1)) { try results[1].get() }
      #expect(throws: DocumentError.self) { try results[2].get() }
      #expect(try results[3].get() == AppendedBatch(revision: 2, count: 1))
      #expect(try await store.load(Self.name)?.drawing.lines.map(\.id.rawValue) == [1, 3])
    }
  }
}
