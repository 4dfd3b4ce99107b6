import Foundation
import Testing
import TouchTrackerCore

@testable import TouchTrackerStore

/// Renaming keeps everything a drawing has (document, log, idempotency
/// keys, share links), never overwrites another drawing, and leaves the
/// old name a tombstone (issue 10).
@Suite struct DrawingStoreRenameTests: ChangeLogTesting {
  static let newName = try! DrawingName("e")

  @Test(arguments: StoreBackend.available)
  func aRenamedDrawingKeepsItsDocumentLogKeysAndLinks(_ backend: StoreBackend) async throws {
    try await Self.withStore(backend) { store, open in
      try await store.save(Drawing(lines: [Self.line(1)]), as: Self.name)
      #expect(try await store.append([Self.add(2)], to: Self.name, ifRevision: 1, key: "k1") == 2)
      #expect(try await store.append([Self.add(3)], to: Self.name, ifRevision: 2, key: "k2") == 3)
      let links = try await store.makeLinks(for: Self.name)
      let before = try #require(try await store.load(Self.name))

      let renamed = try await store.rename(Self.name, to: Self.newName, ifRevision: 3)
      #expect(renamed == Renamed(previousRevision: 3, revision: 3, tombstoneRevision: 4))

      let after = try #require(try await store.load(Self.newName))
      #expect(after == before)
      #expect(try await Self.log(of: store, Self.newName) == (1, [2, 3]))
      #expect(try await store.changes(of: Self.newName, since: 1)?.changes.map(\.revision) == [2, 3])
      #expect(try await store.links(of: Self.newName) == links)
      #expect(try await store.links(of: Self.name) == nil)
      #expect(try await store.list().map(\.name) == [Self.newName])
      #expect(
        try await store.summary(of: Self.newName)
          == DrawingSummary(
            name: Self.newName, revision: 3, updatedAt: DrawingStoreTests.clock(), lineCount: 3, circleCount: 0))
      // A batch sent again with its key is still appended once.
      #expect(try await store.append([Self.add(2)], to: Self.newName, ifRevision: 1, key: "k1") == 2)
      #expect(try await store.load(Self.newName)?.drawing.lines.count == 3)

      // The old name is a tombstone: nothing there, a stale writer gets a
      // conflict, and a drawing made there again continues past it.
      #expect(try await store.load(Self.name) == nil)
      #expect(try await store.summary(of: Self.name) == nil)
      await #expect(throws: DrawingStoreError.conflict(name: "d", expected: 3, current: 0)) {
        try await store.append([Self.add(9)], to: Self.name, ifRevision: 3)
      }
      #expect(try await store.append([Self.add(9)], to: Self.name, ifRevision: 0) == 5)

      // Another connection (a second server) sees the same.
      let other = try await open(compaction: .manual, now: DrawingStoreTests.clock)
      #expect(try await other.load(Self.newName) == after)
      #expect(try await other.links(of: Self.newName) == links)
    }
  }

  @Test(arguments: StoreBackend.available)
  func aNameInUseIsNeverOverwritten(_ backend: StoreBackend) async throws {
    try await Self.withStore(backend) { store, _ in
      try await store.save(Drawing(lines: [Self.line(1)]), as: Self.name)
      try await store.save(Drawing(lines: [Self.line(7), Self.line(8)]), as: Self.newName)
      await #expect(throws: DrawingStoreError.nameTaken(name: "e")) {
        try await store.rename(Self.name, to: Self.newName, ifRevision: nil)
      }
      await #expect(throws: DrawingStoreError.nameTaken(name: "d")) {
        try await store.rename(Self.name, to: Self.name, ifRevision: nil)
      }
      #expect(try await store.load(Self.name)?.drawing.lines.map(\.id.rawValue) == [1])
      #expect(try await store.load(Self.newName)?.drawing.lines.map(\.id.rawValue) == [7, 8])
    }
  }

  @Test(arguments: StoreBackend.available)
  func aMissingOrStaleDrawingIsNotRenamed(_ backend: StoreBackend) async throws {
    try await Self.withStore(backend) { store, _ in
      #expect(try await store.rename(Self.name, to: Self.newName, ifRevision: nil) == nil)
      try await store.save(Drawing(lines: [Self.line(1)]), as: Self.name)
      try await store.append([Self.add(2)], to: Self.name)
      await #expect(throws: DrawingStoreError.conflict(name: "d", expected: 1, current: 2)) {
        try await store.rename(Self.name, to: Self.newName, ifRevision: 1)
      }
      #expect(try await store.load(Self.newName) == nil)
      #expect(try await store.load(Self.name)?.revision == 2)
      try await store.delete(Self.name)
      #expect(try await store.rename(Self.name, to: Self.newName, ifRevision: nil) == nil)
    }
  }

  /// Other servers hear a rename as one notice naming both names.
  @Test func aRenameNoticeNamesBothNamesAndTheShift() {
    let notice = DrawingNotice(kind: .rename, name: "d", revision: 4, renamedTo: "e", shift: 3)
    #expect(notice.payload == "r 4 3 e d")
    #expect(DrawingNotice(payload: notice.payload) == notice)
    #expect(DrawingNotice(payload: "r 4 3 e") == nil)
    #expect(DrawingNotice(payload: "d 4 a name") == DrawingNotice(kind: .delete, name: "a name", revision: 4))
  }

  /// Onto a deleted drawing's name, the revisions move past its tombstone,
  /// as a drawing created there would: a client still holding a revision
  /// of the deleted drawing gets a conflict, not this drawing.
  @Test(arguments: StoreBackend.available)
  func ontoADeletedNameTheRevisionsMovePastItsTombstone(_ backend: StoreBackend) async throws {
    try await Self.withStore(backend) { store, _ in
      for _ in 0..<3 { try await store.save(Drawing(lines: [Self.line(7)]), as: Self.newName) }
      _ = try await store.makeLinks(for: Self.newName)
      try await store.append([Self.add(8)], to: Self.newName, ifRevision: 3, key: "old-key")
      try await store.delete(Self.newName)  // tombstone at 5
      try await store.removeLinks(of: Self.newName)
      _ = try await store.makeLinks(for: Self.newName)  // made again before the name was used: not this drawing's

      try await store.append([Self.add(1)], to: Self.name)
      try await store.append([Self.add(2)], to: Self.name, key: "mine")
      let renamed = try await store.rename(Self.name, to: Self.newName, ifRevision: nil)
      #expect(renamed == Renamed(previousRevision: 2, revision: 6, tombstoneRevision: 3))
      #expect(try await Self.log(of: store, Self.newName) == (4, [5, 6]))
      #expect(try await store.changes(of: Self.newName, since: 4)?.changes.map(\.revision) == [5, 6])
      #expect(try await store.load(Self.newName)?.drawing == Self.applied([Self.add(1), Self.add(2)]))
      #expect(try await store.links(of: Self.newName) == nil)
      await #expect(throws: DrawingStoreError.conflict(name: "e", expected: 4, current: 6)) {
        try await store.append([.clear], to: Self.newName, ifRevision: 4)
      }
      // The deleted drawing's key is forgotten; this drawing's moved with it.
      #expect(try await store.append([Self.add(8)], to: Self.newName, key: "old-key") == 7)
      #expect(try await store.append([Self.add(2)], to: Self.newName, key: "mine") == 6)
    }
  }

  /// The old name says where the drawing went (for a page that missed the
  /// rename) until something happens under it: a drawing made there again,
  /// or that one deleted; a chain of renames is followed a step at a time.
  @Test(arguments: StoreBackend.available)
  func theOldNameSaysWhereTheDrawingWentUntilItIsUsedAgain(_ backend: StoreBackend) async throws {
    try await Self.withStore(backend) { store, open in
      let third = try DrawingName("f")
      try await store.save(Drawing(lines: [Self.line(7)]), as: Self.newName)
      try await store.delete(Self.newName)  // a tombstone at 2: the rename moves past it
      try await store.append([Self.add(1)], to: Self.name)
      #expect(try await store.movedTo(Self.name) == nil, "never renamed")
      _ = try await store.rename(Self.name, to: Self.newName, ifRevision: nil)
      #expect(try await store.movedTo(Self.name) == DrawingMove(name: Self.newName, shift: 2))
      #expect(try await store.movedTo(Self.newName) == nil, "the drawing itself is there")
      let other = try await open(compaction: .manual, now: DrawingStoreTests.clock)
      #expect(try await other.movedTo(Self.name) == DrawingMove(name: Self.newName, shift: 2), "another server too")

      _ = try await store.rename(Self.newName, to: third, ifRevision: nil)
      #expect(try await store.movedTo(Self.name) == DrawingMove(name: Self.newName, shift: 2))
      #expect(try await store.movedTo(Self.newName) == DrawingMove(name: third, shift: 0))

      try await store.append([Self.add(5)], to: Self.name, ifRevision: 0)  // a new drawing under the old name
      #expect(try await store.movedTo(Self.name) == nil)
      try await store.delete(Self.name)
      #expect(try await store.movedTo(Self.name) == nil, "its tombstone is not the rename's")
    }
  }
}
