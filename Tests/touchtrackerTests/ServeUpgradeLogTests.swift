import Foundation
import Testing
import TouchTrackerTestSupport

/// What `touchtracker serve` logs of clients that leave in the middle of
/// opening a live socket: a debug line at most, never an error (an error
/// line per closed tab would bury the real ones).
@Suite struct ServeUpgradeLogTests {
  static let upgrade =
    "GET /api/drawings/d/live HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
    + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"

  /// How a client leaves: after sending the upgrade request, before the
  /// `101` or once it has it; by a reset or an orderly close.
  enum Leaving: String, CaseIterable, Sendable {
    case resetBeforeThe101, closedBeforeThe101, resetAtThe101, closedAtThe101
  }

  @Test func clientsLeavingDuringTheUpgradeLogNoError() async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("touchtracker-serve-\(UUID())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let server = try await ServingProcess.start(
      binary: try TouchTrackerProcess.binary(), arguments: ["--log-format", "json", "--log-level", "debug"],
      in: directory)
    let port = server.port
    let (heads, after) = try await onAThreadOfItsOwn { () throws -> ([String], String) in
      var heads: [String] = []
      // Several of each: whether the server has written the 101 when the
      // client leaves is a race, and each way must log no error.
      for _ in 0..<5 {
        for leaving in Leaving.allCases {
          let connection = try RawConnection(port: port)
          connection.send(Self.upgrade)
          switch leaving {
          case .resetBeforeThe101: connection.abort()
          case .closedBeforeThe101: connection.close()
          case .resetAtThe101, .closedAtThe101:
            heads.append(try connection.readResponse())
            if leaving == .resetAtThe101 { connection.abort() } else { connection.close() }
          }
        }
      }
      let connection = try RawConnection(port: port)
      connection.send("GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
      return (heads, try connection.readUntilClosed())
    }
    #expect(heads.allSatisfy { $0.hasPrefix("HTTP/1.1 101") }, "\(heads)")
    #expect(after.hasPrefix("HTTP/1.1 200"), "the server answers after them: \(after)")
    #expect(try await server.stop(limit: 10) != nil)
    // The log's lines (a debug build without the wasm also says so in a plain line first).
    let logged = server.stderr.split(separator: "\n").compactMap { line -> (String, String)? in
      let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
      return (object?["level"] as? String).map { ($0, String(line)) }
    }
    #expect(logged.contains { $0.1.contains("/healthz") }, "the log was read: \(server.stderr)")
    let serious = logged.filter { ["warning", "error", "critical"].contains($0.0) }.map(\.1)
    #expect(serious.isEmpty, "\(serious.count) lines at warning or above: \(serious)")
  }
}
