import Foundation
import Testing
import TouchTrackerTestSupport

/// `touchtracker serve` as deployed: from a copy of the binary in an empty
/// directory, loopback only unless told otherwise, and a bounded shutdown.
@Suite struct ServeCommandTests {
  static func withEmptyDirectory<T>(_ body: (URL) throws -> T) throws -> T {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("touchtracker-serve-\(UUID())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    return try body(directory)
  }

  @Test func versionPrintsTheVersion() throws {
    let result = try TouchTrackerProcess.run(["--version"])
    #expect(result.status == 0)
    #expect(result.stdout.range(of: #"^\d+\.\d+\.\d+\n$"#, options: .regularExpression) != nil)
  }

  @Test(arguments: ["0.0.0.0", "::", "192.168.1.10"])
  func listeningBeyondLoopbackNeedsAllowRemote(host: String) throws {
    let result = try TouchTrackerProcess.run(["serve", "--host", host, "--port", "0", "--database", "/nonexistent/x"])
    #expect(result.status == 1)
    #expect(
      result.stderrLines == [
        "Error: Listening on '\(host)' would let other machines read and change every drawing (there is no access control yet); pass --allow-remote to do it anyway"
      ])
  }

  /// 192.0.2.1 (TEST-NET-1) is no address of this machine: the warning is
  /// printed, then binding fails, and nothing ever listens beyond loopback.
  @Test func allowRemoteWarnsThatThereIsNoAccessControl() throws {
    try Self.withEmptyDirectory { directory in
      let database = directory.appendingPathComponent("d.sqlite").path
      let result = try TouchTrackerProcess.run([
        "serve", "--host", "192.0.2.1", "--allow-remote", "--port", "0", "--database", database,
      ])
      #expect(result.status != 0)
      #expect(
        result.stderrLines.first
          == "Warning: listening on '192.0.2.1' with no access control: anyone who reaches this port can read, change and delete every drawing"
      )
    }
  }

  @Test func aCopyOfTheBinaryServesThePageFromAnEmptyDirectory() throws {
    try Self.withEmptyDirectory { directory in
      let binary = directory.appendingPathComponent("touchtracker")
      try FileManager.default.copyItem(at: try TouchTrackerProcess.binary(), to: binary)
      let server = try ServingProcess(binary: binary, arguments: [], in: directory)
      let page = try RawConnection(port: server.port)
      page.send("GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
      let response = try page.readUntilClosed()
      #expect(response.hasPrefix("HTTP/1.1 200 OK"))
      #expect(response.contains("<title>TouchTracker</title>"))
      let health = try RawConnection(port: server.port)
      health.send("GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
      #expect(try health.readUntilClosed().contains(#""status":"ok""#))
      #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("touchtracker.sqlite").path))
      #expect(server.terminate(limit: 10) != nil)
    }
  }

  @Test func sigtermEndsTheServerWhileAClientHoldsAHalfSentBody() throws {
    try Self.withEmptyDirectory { directory in
      let server = try ServingProcess(binary: try TouchTrackerProcess.binary(), arguments: [], in: directory)
      let client = try RawConnection(port: server.port)
      client.send("PUT /api/drawings/d HTTP/1.1\r\nHost: localhost\r\nContent-Length: 1000\r\n\r\n{\"format\":")
      let idle = try RawConnection(port: server.port)
      idle.send("GET / HTTP/1.1\r\nHost: loc")
      let seconds = try #require(server.terminate(limit: 10), "still running 10 s after SIGTERM")
      #expect(seconds < 10)
      #expect(server.process.terminationReason == .exit)
    }
  }
}
