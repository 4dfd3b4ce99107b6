import Foundation
import GRDB
import Testing
import TouchTrackerCore
import TouchTrackerTestSupport

@testable import TouchTrackerStore

@Suite struct DrawingStoreTests {
  static let clock: @Sendable () -> Date = { Date(timeIntervalSince1970: 1_800_000_000) }

  static func drawing(lines count: Int, circles: Int = 0) -> Drawing {
    Drawing(
      lines: (0..<count).map { Line(begin: Point(x: Double($0), y: 1), end: Point(x: 2, y: Double($0))) },
      circles: (0..<circles).map { Circle(center: Point(x: Double($0), y: 5), radius: 3, color: .blue, width: 1) }
    )
  }

  static func name(_ text: String) -> DrawingName { try! DrawingName(text) }

  @Test(arguments: StoreBackend.available)
  func aSavedDrawingLoadsBackWithRevisionOne(_ backend: StoreBackend) async throws {
    try await backend.withDatabase { open in
      let store = try await open(now: Self.clock)
      let drawing = Self.drawing(lines: 3, circles: 1)
      #expect(try await store.save(drawing, as: Self.name("default")) == 1)
      let stored = try #require(try await store.load(Self.name("default")))
      #expect(stored.drawing.withoutIDs == drawing && stored.revision == 1 && stored.updatedAt == Self.clock())
      let document = try #require(try await store.loadDocument(Self.name("default")))
      #expect(document.json == (try DocumentCodec.encode(drawing)))
    }
  }

  @Test(arguments: StoreBackend.available)
  func anUnknownDrawingLoadsAsNil(_ backend: StoreBackend) async throws {
    try await backend.withDatabase { open in
      let store = try await open()
      #expect(try await store.load(Self.name("nothing")) == nil)
      #expect(try await store.loadDocument(Self.name("nothing")) == nil)
    }
  }

  @Test(arguments: StoreBackend.available)
  func eachSaveIncrementsTheRevision(_ backend: StoreBackend) async throws {
    try await backend.withDatabase { open in
      let store = try await open()
      for revision in 1...5 {
        #expect(try await store.save(Self.drawing(lines: revision), as: Self.name("d")) == revision)
      }
      #expect(try await store.load(Self.name("d"))?.drawing.withoutIDs == Self.drawing(lines: 5))
    }
  }

  @Test(arguments: StoreBackend.available)
  func listShowsEveryDrawingByNameWithItsCounts(_ backend: StoreBackend) async throws {
    try await backend.withDatabase { open in
      let store = try await open(now: Self.clock)
      try await store.save(Self.drawing(lines: 2, circles: 1), as: Self.name("b"))
      try await store.save(Self.drawing(lines: 1), as: Self.name("a"))
      try await store.save(Self.drawing(lines: 4), as: Self.name("a"))
      try await store.save(Self.drawing(lines: 1), as: Self.name("deleted"))
      try await store.delete(Self.name("deleted"))
      #expect(
        try await store.list() == [
          DrawingSummary(name: Self.name("a"), revision: 2, updatedAt: Self.clock(), lineCount: 4, circleCount: 0),
          DrawingSummary(name: Self.name("b"), revision: 1, updatedAt: Self.clock(), lineCount: 2, circleCount: 1),
        ]
      )
    }
  }

  @Test(arguments: StoreBackend.available)
  func savingWithAnOutdatedRevisionIsAConflictThatChangesNothing(_ backend: StoreBackend) async throws {
    try await backend.withDatabase { open in
      let store = try await open()
      try await store.save(Self.drawing(lines: 1), as: Self.name("d"))
      try await store.save(Self.drawing(lines: 2), as: Self.name("d"), ifRevision: 1)
      let error = await #expect(throws: DrawingStoreError.conflict(name: "d", expected: 1, current: 2)) {
        try await store.save(Self.drawing(lines: 9), as: Self.name("d"), ifRevision: 1)
      }
      #expect(error.map { "\($0)" } == "Drawing 'd' is at revision 2, not 1")
      let stored = try #require(try await store.load(Self.name("d")))
      #expect(stored.drawing.withoutIDs == Self.drawing(lines: 2) && stored.revision == 2)
    }
  }

  @Test(arguments: StoreBackend.available)
  func revisionZeroMeansTheDrawingMustNotExistYet(_ backend: StoreBackend) async throws {
    try await backend.withDatabase { open in
      let store = try await open()
      #expect(try await store.save(Self.drawing(lines: 1), as: Self.name("d"), ifRevision: 0) == 1)
      await #expect(throws: DrawingStoreError.conflict(name: "d", expected: 0, current: 1)) {
        try await store.save(Self.drawing(lines: 2), as: Self.name("d"), ifRevision: 0)
      }
      let error = await #expect(throws: DrawingStoreError.self) {
        try await store.save(Self.drawing(lines: 2), as: Self.name("new"), ifRevision: 4)
      }
      #expect(error.map { "\($0)" } == "Drawing 'new' does not exist, expected revision 4")
    }
  }

  @Test(arguments: StoreBackend.available)
  func deleteRemovesTheDrawingAndReportsWhetherThereWasOne(_ backend: StoreBackend) async throws {
    try await backend.withDatabase { open in
      let store = try await open()
      try await store.save(Self.drawing(lines: 1), as: Self.name("d"))
      #expect(try await store.delete(Self.name("d")) == true)
      #expect(try await store.load(Self.name("d")) == nil)
      #expect(try await store.delete(Self.name("d")) == false)
      #expect(try await store.delete(Self.name("never")) == false)
    }
  }

  @Test(arguments: StoreBackend.available)
  func deletingWithAnOutdatedRevisionIsAConflictThatKeepsTheDrawing(_ backend: StoreBackend) async throws {
    try await backend.withDatabase { open in
      let store = try await open()
      try await store.save(Self.drawing(lines: 1), as: Self.name("d"))
      try await store.save(Self.drawing(lines: 2), as: Self.name("d"))
      await #expect(throws: DrawingStoreError.conflict(name: "d", expected: 1, current: 2)) {
        try await store.delete(Self.name("d"), ifRevision: 1)
      }
      #expect(try await store.load(Self.name("d"))?.drawing.withoutIDs == Self.drawing(lines: 2))
      #expect(try await store.delete(Self.name("d"), ifRevision: 2))
    }
  }

  /// Otherwise a client holding revision 1 of the deleted drawing would
  /// overwrite a new drawing that someone else created under the same name.
  @Test(arguments: StoreBackend.available)
  func aDrawingCreatedAgainAfterDeleteContinuesItsRevisions(_ backend: StoreBackend) async throws {
    try await backend.withDatabase { open in
      let store = try await open()
      try await store.save(Self.drawing(lines: 1), as: Self.name("d"))
      try await store.delete(Self.name("d"))
      #expect(try await store.save(Self.drawing(lines: 2), as: Self.name("d")) == 3)
      await #expect(throws: DrawingStoreError.conflict(name: "d", expected: 1, current: 3)) {
        try await store.save(Self.drawing(lines: 9), as: Self.name("d"), ifRevision: 1)
      }
    }
  }

  @Test(arguments: StoreBackend.available)
  func aDrawingWithANonFiniteNumberIsNotSaved(_ backend: StoreBackend) async throws {
    try await backend.withDatabase { open in
      let store = try await open()
      var drawing = Self.drawing(lines: 1)
      drawing.lines[0].width = .infinity
      await #expect(throws: DocumentError.self) { try await store.save(drawing, as: Self.name("d")) }
      #expect(try await store.load(Self.name("d")) == nil)
    }
  }

  @Test(arguments: StoreBackend.available)
  func aReopenedStoreFindsWhatWasSaved(_ backend: StoreBackend) async throws {
    try await backend.withDatabase { open in
      do {
        let store = try await open()
        try await store.save(Self.drawing(lines: 7), as: Self.name("kept"))
        // A second connection while the first is still open sees the commit.
        let other = try await open()
        #expect(try await other.load(Self.name("kept"))?.revision == 1)
      }
      let reopened = try await open()
      #expect(try await reopened.load(Self.name("kept"))?.drawing.withoutIDs == Self.drawing(lines: 7))
    }
  }

  @Test func aFileThatIsNotADatabaseGivesAClearError() async throws {
    try await withTemporaryDirectory { directory in
      let path = directory.appendingPathComponent("corrupt.sqlite").path
      try Data(String(repeating: "this is not a database ", count: 400).utf8).write(to: URL(fileURLWithPath: path))
      let error = #expect(throws: DrawingStoreError.self) { try SQLiteDrawingStore(path: path) }
      #expect(error?.description == "Cannot open database '\(path)': file is not a database")
    }
  }

  /// A second process (or server) opening the file while another holds a
  /// lock on it for a moment waits its turn instead of failing at once with
  /// "database is locked" (CI saw this from the check that looks at the
  /// file before the store opens it).
  @Test func openingWaitsForAMomentaryLockHeldByAnotherConnection() async throws {
    try await withTemporaryDirectory { directory in
      let path = directory.appendingPathComponent("busy.sqlite").path
      // A SQLite file without tables yet (the store takes those), held by a
      // connection in exclusive locking mode: it keeps every other one out,
      // readers too, until it is closed.
      let holder = try DatabaseQueue(path: path)
      try await holder.writeWithoutTransaction { db in
        try db.execute(sql: "PRAGMA user_version = 1")
        try db.execute(sql: "PRAGMA locking_mode = EXCLUSIVE")
        try db.execute(sql: "BEGIN EXCLUSIVE")
        try db.execute(sql: "PRAGMA user_version = 2")
        try db.execute(sql: "COMMIT")
      }
      // Released from a thread of its own: opening blocks the test's thread,
      // which on a one-core runner may be the task pool's only one.
      let released = DispatchSemaphore(value: 0)
      Thread.detachNewThread {
        Thread.sleep(forTimeInterval: 0.3)
        try? holder.close()
        released.signal()
      }
      let store = try SQLiteDrawingStore(path: path)
      released.wait()
      try await store.save(Self.drawing(lines: 3), as: Self.name("kept"))
      #expect(try await store.load(Self.name("kept"))?.drawing.withoutIDs == Self.drawing(lines: 3))
    }
  }

  @Test func aDatabaseWithADamagedTableGivesAnErrorNotACrash() async throws {
    try await withTemporaryDirectory { directory in
      let path = directory.appendingPathComponent("damaged.sqlite").path
      do {
        let store = try SQLiteDrawingStore(path: path)
        for index in 0..<20 { try await store.save(Self.drawing(lines: 200), as: Self.name("d\(index)")) }
      }
      // Overwrite every page after the first (the header and schema) with garbage.
      for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
      var data = try Data(contentsOf: URL(fileURLWithPath: path))
      let pageSize = Int(data[16]) << 8 | Int(data[17])
      for offset in pageSize..<data.count { data[offset] = UInt8(truncatingIfNeeded: offset &* 31) }
      try data.write(to: URL(fileURLWithPath: path))
      do {
        let store = try SQLiteDrawingStore(path: path)
        await #expect(throws: (any Error).self) { try await store.list() }
      } catch {
        #expect("\(error)".hasPrefix("Cannot open database '\(path)': "))
      }
    }
  }

  @Test func aDatabaseInAMissingDirectoryGivesAClearError() {
    let path = "/nonexistent-touchtracker-directory/a.sqlite"
    let error = #expect(throws: DrawingStoreError.self) { try SQLiteDrawingStore(path: path) }
    #expect(error?.description == "Cannot open database '\(path)': unable to open database file")
  }
}

@Suite struct DrawingStoreDurabilityTests {
  /// WAL with `synchronous = FULL` syncs the WAL at every commit; GRDB's
  /// default for pools, NORMAL, would lose the last commits on a power cut.
  @Test func commitsAreSyncedToDiskInWALMode() async throws {
    try await withTemporaryDirectory { directory in
      let store = try SQLiteDrawingStore(path: directory.appendingPathComponent("a.sqlite").path)
      let (journalMode, synchronous) = try await store.database.writeWithoutTransaction { db in
        (try String.fetchOne(db, sql: "PRAGMA journal_mode"), try Int.fetchOne(db, sql: "PRAGMA synchronous"))
      }
      #expect(journalMode == "wal")
      #expect(synchronous == 2)  // FULL
    }
  }
}
