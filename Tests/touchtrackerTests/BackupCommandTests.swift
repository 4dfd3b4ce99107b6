import Foundation
import Testing
import TouchTrackerCore
import TouchTrackerStore

/// `touchtracker backup` and `restore` from the command line: a round trip
/// through a backup file, and the refusals that keep data safe.
@Suite struct BackupCommandTests {
  @Test func aDatabaseGoesThroughABackupAndComesBackTheSame() async throws {
    try await ServeCommandTests.withEmptyDirectory { directory in
      let path = { (name: String) in directory.appendingPathComponent(name).path }
      let original = try SQLiteDrawingStore(path: path("a.sqlite"))
      let drawing = try DrawingName("kitchen")
      _ = try await original.append(
        [
          .add(
            lines: [Line(id: ShapeID(rawValue: 1), begin: Point(x: 1, y: 2), end: Point(x: 3, y: 4))], circles: [],
            at: nil)
        ], to: drawing)
      let links = try await original.makeLinks(for: drawing)
      let document = try #require(try await original.loadDocument(drawing))
      await original.close()

      let backup = try await TouchTrackerProcess.run(["backup", "--database", path("a.sqlite"), path("b.sqlite")])
      #expect(backup.status == 0, "\(backup.stderr)")
      #expect(backup.stdout == "Backed up 1 drawing to \(path("b.sqlite"))\n")
      let restore = try await TouchTrackerProcess.run(["restore", path("b.sqlite"), "--database", path("c.sqlite")])
      #expect(restore.status == 0, "\(restore.stderr)")

      let restored = try SQLiteDrawingStore(path: path("c.sqlite"))
      #expect(try await restored.loadDocument(drawing) == document)
      #expect(try await restored.links(of: drawing) == links)
      await restored.close()

      let again = try await TouchTrackerProcess.run(["restore", path("b.sqlite"), "--database", path("c.sqlite")])
      #expect(again.status == 1)
      #expect(
        again.stderrLines == ["Error: \(path("c.sqlite")) already holds 1 drawing: restore into an empty database"])
      let over = try await TouchTrackerProcess.run(["backup", "--database", path("a.sqlite"), path("b.sqlite")])
      #expect(over.stderrLines == ["Error: \(path("b.sqlite")) already exists: a backup goes into a new file"])
      let missing = try await TouchTrackerProcess.run(["backup", "--database", path("none.sqlite"), path("d.sqlite")])
      #expect(missing.stderrLines == ["Error: No database at \(path("none.sqlite"))"])
      #expect(!FileManager.default.fileExists(atPath: path("d.sqlite")))
    }
  }
}
