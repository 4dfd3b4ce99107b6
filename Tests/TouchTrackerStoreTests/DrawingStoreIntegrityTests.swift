import Foundation
import GRDB
import Testing
import TouchTrackerCore

@testable import TouchTrackerStore

/// Damage is reported, never served; files that are not ours are refused
/// as they are.
@Suite struct DrawingStoreIntegrityTests {
  static let name = try! DrawingName("d")

  @Test(arguments: StoreBackend.available)
  func aDocumentDamagedOnDiskIsRefusedNamingTheDrawing(_ backend: StoreBackend) async throws {
    try await backend.withDatabase { open in
      let store = try await open()
      try await store.save(DrawingStoreTests.drawing(lines: 3), as: Self.name)
      // One character changed, the checksum left as it was: a bit flip.
      try await store.executeForTesting(
        "UPDATE drawingSnapshot SET document = replace(document, '\"begin\"', '\"begiN\"')")
      await #expect(throws: DrawingStoreError.damaged(name: "d")) { try await store.loadDocument(Self.name) }
      await #expect(throws: DrawingStoreError.damaged(name: "d")) { try await store.load(Self.name) }
      #expect(
        DrawingStoreError.damaged(name: "d").description
          == "Drawing 'd' is damaged in the database (its checksum does not match); it is not served")
    }
  }

  @Test func rowsWrittenBeforeChecksumsGetOneWhenTheDatabaseIsOpened() async throws {
    try await withTemporaryDirectory { directory in
      let path = directory.appendingPathComponent("old.sqlite").path
      let document = String(decoding: try DocumentCodec.encode(DrawingStoreTests.drawing(lines: 2)), as: UTF8.self)
      // The database as the first release wrote it: only the first migration.
      let old = try DatabaseQueue(path: path)
      var firstOnly = DatabaseMigrator()
      firstOnly.registerMigration("Create drawing") { db in
        try db.create(table: "drawing") { table in
          table.primaryKey("name", .text)
          table.column("document", .text)
          table.column("revision", .integer).notNull()
          table.column("lineCount", .integer).notNull()
          table.column("circleCount", .integer).notNull()
          table.column("updatedAt", .datetime).notNull()
        }
      }
      try firstOnly.migrate(old)
      try await old.write { db in
        try db.execute(
          sql: "INSERT INTO drawing VALUES ('d', ?, 4, 2, 0, '2026-01-01 00:00:00.000')", arguments: [document])
      }
      try old.close()

      let store = try SQLiteDrawingStore(path: path)
      let loaded = try #require(try await store.loadDocument(Self.name))
      #expect(String(decoding: loaded.json, as: UTF8.self) == document)
      #expect(loaded.revision == 4)
    }
  }

  @Test func anEmptyDatabaseFileIsRefusedAndLeftAsItIs() throws {
    try withTemporaryDirectorySync { directory in
      let path = directory.appendingPathComponent("empty.sqlite").path
      #expect(FileManager.default.createFile(atPath: path, contents: Data()))
      let error = #expect(throws: DrawingStoreError.self) { try SQLiteDrawingStore(path: path) }
      #expect(
        error?.description
          == "Cannot open database '\(path)': the file is empty (0 bytes); move it away to start a new database there")
      let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int
      #expect(size == 0)
      #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
    }
  }

  @Test func aForeignSQLiteDatabaseIsRefusedAndLeftAsItIs() throws {
    try withTemporaryDirectorySync { directory in
      let path = directory.appendingPathComponent("other.sqlite").path
      let queue = try DatabaseQueue(path: path)
      try queue.write { db in
        try db.execute(sql: "CREATE TABLE invoice (id INTEGER PRIMARY KEY); INSERT INTO invoice VALUES (1)")
      }
      try queue.close()
      let before = try Data(contentsOf: URL(fileURLWithPath: path))
      let error = #expect(throws: DrawingStoreError.self) { try SQLiteDrawingStore(path: path) }
      #expect(
        error?.description
          == "Cannot open database '\(path)': not a TouchTracker database (its tables are 'invoice', no 'drawing')")
      let after = try Data(contentsOf: URL(fileURLWithPath: path))
      #expect(after == before)
      #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
    }
  }

  @Test func aFileThatIsNotADatabaseIsRefusedAndLeftAsItIs() throws {
    try withTemporaryDirectorySync { directory in
      let path = directory.appendingPathComponent("notes.sqlite").path
      let contents = Data("my notes, not a database\n".utf8)
      try contents.write(to: URL(fileURLWithPath: path))
      let error = #expect(throws: DrawingStoreError.self) { try SQLiteDrawingStore(path: path) }
      #expect(error?.description == "Cannot open database '\(path)': file is not a database")
      let after = try Data(contentsOf: URL(fileURLWithPath: path))
      #expect(after == contents)
    }
  }

  @Test func aPathThatDoesNotExistIsCreated() throws {
    try withTemporaryDirectorySync { directory in
      let path = directory.appendingPathComponent("new.sqlite").path
      _ = try SQLiteDrawingStore(path: path)
      #expect(FileManager.default.fileExists(atPath: path))
    }
  }
}
