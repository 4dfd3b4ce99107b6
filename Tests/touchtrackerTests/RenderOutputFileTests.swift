import Foundation
import Testing

/// `render -o PATH` writes the SVG without replacing what is at PATH: a
/// regular file keeps its mode and links, a symbolic link is written through,
/// and anything else is refused with one line.
@Suite struct RenderOutputFileTests {
  @Test func anExistingFileKeepsItsMode() async throws {
    try await withScratch { scratch in
      let output = scratch + "/drawing.svg"
      try Data("old".utf8).write(to: URL(fileURLWithPath: output))
      try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: output)
      let result = try await render(to: output)
      #expect(result.status == 0)
      #expect(result.stderr == "")
      #expect(try mode(of: output) == 0o640)
      #expect(try String(contentsOfFile: output, encoding: .utf8).hasPrefix("<svg "))
    }
  }

  @Test func aSymbolicLinkIsWrittenThroughToItsTarget() async throws {
    try await withScratch { scratch in
      let target = scratch + "/target.svg"
      let link = scratch + "/link.svg"
      try Data("old".utf8).write(to: URL(fileURLWithPath: target))
      try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "target.svg")
      let result = try await render(to: link)
      #expect(result.status == 0)
      #expect(result.stderr == "")
      #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "target.svg", "still a link")
      #expect(try String(contentsOfFile: target, encoding: .utf8).hasPrefix("<svg "))
    }
  }

  @Test func aLinkToAMissingFileIsRefused() async throws {
    try await withScratch { scratch in
      let link = scratch + "/link.svg"
      try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "missing/target.svg")
      let result = try await render(to: link)
      #expect(result.status != 0)
      #expect(result.stderr == "Error: Cannot write '\(link)': a symbolic link to a missing file\n")
      #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "missing/target.svg")
    }
  }

  @Test func aFileWithAnotherHardLinkIsRewrittenForBothNames() async throws {
    try await withScratch { scratch in
      let output = scratch + "/drawing.svg"
      let other = scratch + "/other-name.svg"
      try Data("old".utf8).write(to: URL(fileURLWithPath: output))
      try FileManager.default.linkItem(atPath: output, toPath: other)
      let result = try await render(to: output)
      #expect(result.status == 0)
      #expect(try String(contentsOfFile: other, encoding: .utf8).hasPrefix("<svg "))
    }
  }

  @Test func aDirectoryIsRefusedWithOneLine() async throws {
    try await withScratch { scratch in
      let result = try await render(to: scratch)
      #expect(result.status != 0)
      #expect(!result.crashed)
      #expect(result.stderr == "Error: Cannot write '\(scratch)': not a regular file\n")
    }
  }

  @Test func aFIFOIsRefusedAndStaysAFIFO() async throws {
    try await withScratch { scratch in
      let fifo = scratch + "/pipe"
      try #require(mkfifo(fifo, 0o600) == 0)
      let result = try await render(to: fifo)
      #expect(result.status != 0)
      #expect(result.stderr == "Error: Cannot write '\(fifo)': not a regular file\n")
      var status = stat()
      #expect(lstat(fifo, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO, "still a FIFO")
    }
  }

  @Test(.enabled(if: geteuid() == 0, "only root can give a file to another user"))
  func anotherUsersFileKeepsItsOwner() async throws {
    try await withScratch { scratch in
      let output = scratch + "/drawing.svg"
      try Data("old".utf8).write(to: URL(fileURLWithPath: output))
      try #require(chown(output, 4321, 4322) == 0)
      let result = try await render(to: output)
      #expect(result.status == 0)
      var status = stat()
      #expect(lstat(output, &status) == 0)
      #expect(status.st_uid == 4321)
      #expect(status.st_gid == 4322)
      #expect(try String(contentsOfFile: output, encoding: .utf8).hasPrefix("<svg "))
    }
  }

  @Test func aMissingFolderIsNamedWithTheSystemsReason() async throws {
    let output = "/nonexistent/touchtracker/drawing.svg"
    let result = try await render(to: output)
    #expect(result.status != 0)
    #expect(result.stderr == "Error: Cannot write '\(output)': No such file or directory\n")
  }

  // MARK: Helpers

  private func render(to output: String) async throws -> TouchTrackerProcess.Result {
    try await TouchTrackerProcess.run(["render", try TouchTrackerProcess.fixture("drawing"), "-o", output])
  }

  private func mode(of path: String) throws -> Int {
    try #require(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
  }

  private func withScratch(_ body: (String) async throws -> Void) async throws {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("touchtracker-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: url) }
    try await body(url.path)
  }
}
