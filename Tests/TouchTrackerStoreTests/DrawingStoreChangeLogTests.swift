import Foundation
import GRDB
import Testing
import TouchTrackerCore

@testable import TouchTrackerStore

/// A drawing as a snapshot plus a log of changes: appending, reading,
/// compacting, and the guarantees `save` has (revisions, conflicts,
/// tombstones), kept for appends.
@Suite struct DrawingStoreChangeLogTests: ChangeLogTesting {
  // MARK: - Appending

  @Test(arguments: StoreBackend.available)
  func appendingCreatesTheDrawingAndGivesEachChangeARevision(_ backend: StoreBackend) async throws {
    try await Self.withStore(backend) { store, _ in
      #expect(try await store.append([Self.add(1, 2)], to: Self.name, ifRevision: 0) == 1)
      let more: [Change] = [
        Self.add(3), .moveLine(ShapeID(rawValue: 1), begin: Point(x: 9, y: 9), end: Point(x: 0, y: 0)),
      ]
      #expect(try await store.append(more, to: Self.name, ifRevision: 1) == 3)
      #expect(try await store.append([.deleteLine(ShapeID(rawValue: 2))], to: Self.name) == 4)
      let expected = Self.applied([Self.add(1, 2)] + more + [.deleteLine(ShapeID(rawValue: 2))])
      let stored = try #require(try await store.load(Self.name))
      #expect(stored == StoredDrawing(drawing: expected, revision: 4, updatedAt: DrawingStoreTests.clock()))
      #expect(Self.text(try await store.loadDocument(Self.name)) == Self.document(expected))
      #expect(try await Self.log(of: store) == (0, [1, 2, 3, 4]))
    }
  }

  @Test(arguments: StoreBackend.available)
  func appendingOnASavedDrawingBuildsOnItsDocument(_ backend: StoreBackend) async throws {
    try await Self.withStore(backend) { store, _ in
      let saved = Drawing(lines: [Self.line(10), Self.line(11)])
      try await store.save(saved, as: Self.name)
      #expect(
        try await store.append([Self.add(12), .deleteLine(ShapeID(rawValue: 10))], to: Self.name, ifRevision: 1) == 3)
      let expected = Self.applied([Self.add(12), .deleteLine(ShapeID(rawValue: 10))], to: saved)
      #expect(try await store.load(Self.name)?.drawing == expected)
      #expect(try await Self.log(of: store) == (1, [2, 3]))
    }
  }

  @Test(arguments: StoreBackend.available)
  func aStaleAppendIsAConflictThatAppendsNothing(_ backend: StoreBackend) async throws {
    try await Self.withStore(backend) { store, _ in
      try await store.append([Self.add(1)], to: Self.name)
      try await store.append([Self.add(2)], to: Self.name)
      await #expect(throws: DrawingStoreError.conflict(name: "d", expected: 1, current: 2)) {
        try await store.append([.clear], to: Self.name, ifRevision: 1)
      }
      await #expect(throws: DrawingStoreError.conflict(name: "d", expected: 0, current: 2)) {
        try await store.append([.clear], to: Self.name, ifRevision: 0)
      }
      await #expect(throws: DrawingStoreError.conflict(name: "new", expected: 3, current: 0)) {
        try await store.append([Self.add(1)], to: DrawingName("new"), ifRevision: 3)
      }
      #expect(try await store.load(Self.name)?.drawing.lines.count == 2)
      #expect(try await store.load(DrawingName("new")) == nil)
      #expect(try await Self.log(of: store) == (0, [1, 2]))
    }
  }

  /// Of several appends expecting one revision, exactly one lands, as with `save`.
  @Test(arguments: StoreBackend.available)
  func ofConcurrentAppendsExpectingOneRevisionExactlyOneWins(_ backend: StoreBackend) async throws {
    try await Self.withStore(backend) { store, _ in
      try await store.append([Self.add(1)], to: Self.name)
      let results = await withTaskGroup(of: Bool.self) { group in
        for id in UInt64(2)...9 {
          group.addTask { (try? await store.append([Self.add(id)], to: Self.name, ifRevision: 1)) != nil }
        }
        return await group.reduce(into: [Bool]()) { $0.append($1) }
      }
      #expect(results.filter { $0 }.count == 1)
      #expect(try await store.load(Self.name)?.revision == 2)
    }
  }

  @Test(arguments: StoreBackend.available)
  func anEmptyBatchAppendsNothingAndAnswersTheRevision(_ backend: StoreBackend) async throws {
    try await Self.withStore(backend) { store, _ in
      #expect(try await store.append([], to: Self.name) == 0)
      #expect(try await store.load(Self.name) == nil)
      try await store.append([Self.add(1)], to: Self.name)
      #expect(try await store.append([], to: Self.name, ifRevision: 1) == 1)
      await #expect(throws: DrawingStoreError.conflict(name: "d", expected: 0, current: 1)) {
        try await store.append([], to: Self.name, ifRevision: 0)
      }
    }
  }

  @Test(arguments: StoreBackend.available)
  func aRetriedBatchWithItsKeyAppendsNothingAndAnswersWhereItEnded(_ backend: StoreBackend) async throws {
    try await Self.withStore(backend) { store, _ in
      let batch = [Self.add(1), Self.add(2)]
      #expect(try await store.append(batch, to: Self.name, ifRevision: 0, key: "batch-1") == 2)
      #expect(try await store.append([Self.add(3)], to: Self.name, ifRevision: 2, key: "batch-2") == 3)
      // The first batch again, as a client that lost the answer sends it:
      // its If-Match is stale now, and still no conflict and no second copy.
      #expect(try await store.append(batch, to: Self.name, ifRevision: 0, key: "batch-1") == 2)
      #expect(try await store.append([Self.add(3)], to: Self.name, ifRevision: 2, key: "batch-2") == 3)
      #expect(try await Self.log(of: store) == (0, [1, 2, 3]))
      // Keys belong to one drawing.
      #expect(try await store.append(batch, to: DrawingName("other"), key: "batch-1") == 2)
      // And outlive compaction.
      try await store.compact(Self.name)
      #expect(try await Self.log(of: store) == (3, []))
      #expect(try await store.append(batch, to: Self.name, ifRevision: 0, key: "batch-1") == 2)
      #expect(try await store.load(Self.name)?.revision == 3)
      // A new key appends.
      #expect(try await store.append([Self.add(4)], to: Self.name, key: "batch-3") == 4)
    }
  }

  @Test(arguments: StoreBackend.available)
  func countsMoveWithTheChangesAndCompactionMakesThemExact(_ backend: StoreBackend) async throws {
    try await Self.withStore(backend) { store, _ in
      func counts() async throws -> (Int, Int)? {
        try await store.list().first.map { ($0.lineCount, $0.circleCount) }
      }
      try await store.append(
        [.add(lines: [Self.line(1), Self.line(2), Self.line(3)], circles: [Self.circle(4)], at: nil)], to: Self.name)
      #expect(try await counts()! == (3, 1))
      try await store.append([.deleteLine(ShapeID(rawValue: 1)), .deleteCircle(ShapeID(rawValue: 4))], to: Self.name)
      #expect(try await counts()! == (2, 0))
      try await store.append([.clear, Self.add(5)], to: Self.name)
      #expect(try await counts()! == (1, 0))
      // Deleting an id that is not there: the count trusts the change...
      try await store.append([.deleteLine(ShapeID(rawValue: 99))], to: Self.name)
      #expect(try await counts()! == (0, 0))
      // ...until compaction counts the drawing.
      try await store.compact(Self.name)
      #expect(try await counts()! == (1, 0))
    }
  }

  /// Appending never reads the document: a damaged snapshot does not stop
  /// it (reading then reports the damage).
  @Test(arguments: StoreBackend.available)
  func appendingNeverReadsTheSnapshot(_ backend: StoreBackend) async throws {
    try await Self.withStore(backend) { store, _ in
      try await store.save(Drawing(lines: [Self.line(1)]), as: Self.name)
      try await store.executeForTesting(
        "UPDATE drawingSnapshot SET document = replace(document, '\"begin\"', '\"begiN\"')")
      #expect(try await store.append([Self.add(2)], to: Self.name, ifRevision: 1) == 2)
      await #expect(throws: DrawingStoreError.damaged(name: "d")) { try await store.loadDocument(Self.name) }
      await #expect(throws: DrawingStoreError.damaged(name: "d")) { try await store.compact(Self.name) }
    }
  }

  @Test(arguments: StoreBackend.available)
  func aChangeTheLogCouldNotReplayIsRefusedBeforeAnythingIsStored(_ backend: StoreBackend) async throws {
    try await Self.withStore(backend) { store, _ in
      let refused: [(Change, String)] = [
        (
          .add(lines: [Line(begin: Point(x: 1, y: 1), end: Point(x: 2, y: 2))], circles: [], at: nil),
          "Missing 'id' at changes[1].lines[0]"
        ),
        (.add(lines: [Self.line(1), Self.line(1)], circles: [], at: nil), "Duplicate id 1 at changes[1].lines[1].id"),
        (.add(lines: [Self.line(1)], circles: [Self.circle(1)], at: nil), "Duplicate id 1 at changes[1].circles[0].id"),
        (
          .add(lines: [Self.line(1, x: .nan)], circles: [], at: nil), "Non-finite number at changes[1].lines[0].begin.x"
        ),
        (
          .moveLine(ShapeID(rawValue: 1), begin: Point(x: 1e12, y: 0), end: Point(x: 0, y: 0)),
          "Number out of range at changes[1].begin.x"
        ),
        (
          .add(lines: [Self.line(1)], circles: [], at: -1),
          "Invalid position -1 at changes[1].at; expected an integer >= 0"
        ),
        (.deleteLine(ShapeID.unassigned), "Invalid id 0 at changes[1]"),
      ]
      for (change, message) in refused {
        let error = await #expect(throws: DocumentError.self) {
          try await store.append([Self.add(7), change], to: Self.name)
        }
        #expect(error?.description == message)
      }
      let stored = try await store.load(Self.name)
      #expect(stored == nil)
    }
  }

  /// A line added with a circle's id (or the other way round) replaces
  /// that shape, as an add replaces a shape of its own kind: the drawing
  /// never holds one id twice, which no reader would open.
  @Test(arguments: StoreBackend.available)
  func anAddWithAnIdOfTheOtherKindReplacesThatShape(_ backend: StoreBackend) async throws {
    try await Self.withStore(backend) { store, _ in
      try await store.append([.add(lines: [Self.line(1)], circles: [Self.circle(2)], at: nil)], to: Self.name)
      try await store.append([.add(lines: [Self.line(2)], circles: [], at: nil)], to: Self.name)
      try await store.append([.add(lines: [], circles: [Self.circle(1)], at: nil)], to: Self.name)
      let expected = Drawing(lines: [Self.line(2)], circles: [Self.circle(1)])
      let document = try #require(Self.text(try await store.loadDocument(Self.name)))
      #expect(document == Self.document(expected))
      #expect(try DocumentCoder.decode(document) == expected)
      #expect(try await store.compact(Self.name) == 3)
      #expect(try await store.load(Self.name)?.drawing == expected)
    }
  }

  // MARK: - Reading

  /// No log after the snapshot: the stored text as it is, not decoded and
  /// written again (this one is spaced as no encoder writes it).
  @Test(arguments: StoreBackend.available)
  func withoutALogTheSnapshotIsReadAsItIs(_ backend: StoreBackend) async throws {
    try await Self.withStore(backend) { store, _ in
      try await store.save(Drawing(lines: [Self.line(1)]), as: Self.name)
      let spaced = #"{ "format": "touchtracker", "version": 1, "lines": [], "circles": [] }"#
      try await store.executeForTesting(
        "UPDATE drawingSnapshot SET document = \(sqlLiteral(spaced)), checksum = \(CRC32.checksum(spaced.utf8))")
      #expect(Self.text(try await store.loadDocument(Self.name)) == spaced)
      try await store.append([Self.add(2)], to: Self.name)
      #expect(Self.text(try await store.loadDocument(Self.name)) == Self.document(Self.applied([Self.add(2)])))
    }
  }

  @Test(arguments: StoreBackend.available)
  func aDamagedChangeIsReportedNeverServed(_ backend: StoreBackend) async throws {
    try await Self.withStore(backend) { store, _ in
      try await store.append([Self.add(1), Self.add(2)], to: Self.name)
      try await store.executeForTesting(
        "UPDATE drawingChange SET change = replace(change, '\"x\":1', '\"x\":7') WHERE revision = 2")
      await #expect(throws: DrawingStoreError.damaged(name: "d")) { try await store.loadDocument(Self.name) }
      await #expect(throws: DrawingStoreError.damaged(name: "d")) { try await store.changes(of: Self.name, since: 1) }
      #expect(try await store.changes(of: Self.name, since: 2)?.changes == [])
    }
  }

  @Test(arguments: StoreBackend.available)
  func changesSinceARevisionUntilTheyAreCompacted(_ backend: StoreBackend) async throws {
    try await Self.withStore(backend) { store, _ in
      #expect(try await store.changes(of: Self.name, since: 0) == nil)
      let changes = [Self.add(1), Self.add(2), .deleteLine(ShapeID(rawValue: 1))]
      try await store.append(changes, to: Self.name)
      let all = try #require(try await store.changes(of: Self.name, since: 0))
      #expect(all.revision == 3)
      #expect(all.changes.map(\.revision) == [1, 2, 3])
      #expect(all.changes.map(\.json) == changes.map { String(decoding: ChangeCoder.encode($0), as: UTF8.self) })
      #expect(try await store.changes(of: Self.name, since: 2)?.changes.map(\.revision) == [3])
      #expect(try await store.changes(of: Self.name, since: 3) == StoredChanges(revision: 3, changes: []))
      await #expect(throws: DrawingStoreError.changesGone(name: "d", since: 4, snapshotRevision: 0, current: 3)) {
        try await store.changes(of: Self.name, since: 4)
      }
      try await store.compact(Self.name)
      try await store.append([Self.add(5)], to: Self.name)
      await #expect(throws: DrawingStoreError.changesGone(name: "d", since: 2, snapshotRevision: 3, current: 4)) {
        try await store.changes(of: Self.name, since: 2)
      }
      #expect(try await store.changes(of: Self.name, since: 3)?.changes.map(\.revision) == [4])
      #expect(
        DrawingStoreError.changesGone(name: "d", since: 2, snapshotRevision: 3, current: 4).description
          == "The changes of drawing 'd' after revision 2 were compacted into its document (at revision 3);"
          + " read the whole document")
    }
  }

  // MARK: - Save and delete over a log

  @Test(arguments: StoreBackend.available)
  func savingADocumentReplacesTheSnapshotAndEmptiesTheLog(_ backend: StoreBackend) async throws {
    try await Self.withStore(backend) { store, _ in
      try await store.append([Self.add(1), Self.add(2)], to: Self.name)
      let imported = Drawing(lines: [Self.line(40)])
      #expect(try await store.save(imported, as: Self.name, ifRevision: 2) == 3)
      #expect(try await Self.log(of: store) == (3, []))
      #expect(try await store.load(Self.name)?.drawing == imported)
      await #expect(throws: DrawingStoreError.self) { try await store.changes(of: Self.name, since: 2) }
      #expect(try await store.append([Self.add(41)], to: Self.name, ifRevision: 3) == 4)
      #expect(try await store.load(Self.name)?.drawing == Self.applied([Self.add(41)], to: imported))
    }
  }

  @Test(arguments: StoreBackend.available)
  func deletingEmptiesTheLogAndAnAppendCreatesTheDrawingAgainAfterItsTombstone(_ backend: StoreBackend) async throws {
    try await Self.withStore(backend) { store, _ in
      try await store.append([Self.add(1), Self.add(2)], to: Self.name)
      #expect(try await store.delete(Self.name, ifRevision: 2))
      #expect(try await Self.log(of: store) == (3, []))
      #expect(try await store.load(Self.name) == nil)
      #expect(try await store.list() == [])
      #expect(try await store.changes(of: Self.name, since: 2) == nil)
      // A tab still holding revision 2 of the deleted drawing is refused...
      await #expect(throws: DrawingStoreError.conflict(name: "d", expected: 2, current: 0)) {
        try await store.append([Self.add(3)], to: Self.name, ifRevision: 2)
      }
      // ...and the drawing made again continues from the tombstone, empty.
      #expect(try await store.append([Self.add(3)], to: Self.name, ifRevision: 0) == 4)
      #expect(try await store.load(Self.name)?.drawing == Self.applied([Self.add(3)]))
      #expect(try await store.list().map(\.revision) == [4])
    }
  }

  // MARK: - Listing and the schema

  /// Listing reads the summary columns of `drawing` alone: with every
  /// snapshot and change gone it still answers.
  @Test(arguments: StoreBackend.available)
  func listingReadsNoDocumentAndNoChange(_ backend: StoreBackend) async throws {
    try await Self.withStore(backend) { store, _ in
      try await store.save(Drawing(lines: [Self.line(1)]), as: DrawingName("a"))
      try await store.append([Self.add(1), Self.add(2)], to: DrawingName("b"))
      try await store.executeForTesting("DROP TABLE drawingSnapshot")
      try await store.executeForTesting("DROP TABLE drawingChange")
      #expect(try await store.list().map(\.name.rawValue) == ["a", "b"])
      #expect(try await store.list().map(\.lineCount) == [1, 2])
    }
  }

  /// A database written before the change log: documents move to
  /// snapshots, tombstones stay tombstones, revisions go on.
  @Test func aDatabaseFromBeforeTheChangeLogOpensWithEverythingInIt() async throws {
    try await withTemporaryDirectory { directory in
      let path = directory.appendingPathComponent("old.sqlite").path
      let document = Self.document(Drawing(lines: [Self.line(1), Self.line(2)]))
      let old = try DatabaseQueue(path: path)
      var previous = DatabaseMigrator()
      previous.registerMigration("Create drawing") { db in
        try db.create(table: "drawing") { table in
          table.primaryKey("name", .text)
          table.column("document", .text)
          table.column("revision", .integer).notNull()
          table.column("lineCount", .integer).notNull()
          table.column("circleCount", .integer).notNull()
          table.column("updatedAt", .datetime).notNull()
        }
      }
      previous.registerMigration("Add document checksum") { db in
        try db.alter(table: "drawing") { table in table.add(column: "checksum", .integer) }
      }
      try previous.migrate(old)
      try await old.write { db in
        try db.execute(
          sql: "INSERT INTO drawing VALUES ('d', ?, 4, 2, 0, '2026-01-01 00:00:00.000', ?)",
          arguments: [document, Int64(CRC32.checksum(document.utf8))])
        try db.execute(sql: "INSERT INTO drawing VALUES ('gone', NULL, 7, 0, 0, '2026-01-01 00:00:00.000', NULL)")
      }
      try old.close()

      let store = try SQLiteDrawingStore(path: path, compaction: .manual)
      let loaded = try #require(try await store.loadDocument(Self.name))
      #expect(Self.text(loaded) == document && loaded.revision == 4)
      #expect(try await store.list().map(\.name.rawValue) == ["d"])
      #expect(try await store.list().map(\.lineCount) == [2])
      #expect(try await store.load(DrawingName("gone")) == nil)
      #expect(try await store.append([Self.add(3)], to: Self.name, ifRevision: 4) == 5)
      #expect(try await store.append([Self.add(3)], to: DrawingName("gone"), ifRevision: 0) == 8)
    }
  }
}
