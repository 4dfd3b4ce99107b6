import Foundation
import Hummingbird
import HummingbirdTesting
import TouchTrackerServer

/// A server on a fresh database and a small web root in a temporary
/// directory, tested in-process through its router: no sockets.
struct TestServer: Sendable {
  /// The directory holding `Web/` (the web root), `secret.txt` beside it,
  /// and the database.
  let directory: URL

  var webRoot: URL { directory.appendingPathComponent("Web") }
  var databasePath: String { directory.appendingPathComponent("drawings.sqlite").path }

  static let files: [String: String] = [
    "index.html": "<!doctype html><title>TouchTracker</title>",
    "app.js": "console.log('hello')",
    "style.css": "body { background: gray; }",
    "touchtracker.wasm": "\0asm\u{1}\0\0\0",
    "manifest.webmanifest": #"{"name": "TouchTracker"}"#,
  ]

  /// - Parameters:
  ///   - setup: `.router` (no sockets) or `.live` (a real server on a free
  ///     loopback port, `client.port`).
  ///   - configure: Changes to the configuration (timeouts, public host,
  ///     `webRoot = nil` for the embedded files).
  static func run<T: Sendable>(
    _ setup: TestingSetup = .router,
    configure: @Sendable (inout ServerConfiguration) -> Void = { _ in },
    _ body: @escaping @Sendable (TestServer, any TestClientProtocol) async throws -> T
  ) async throws -> T {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("touchtracker-server-tests-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    let server = TestServer(directory: directory)
    try FileManager.default.createDirectory(at: server.webRoot, withIntermediateDirectories: true)
    for (name, contents) in files {
      try Data(contents.utf8).write(to: server.webRoot.appendingPathComponent(name))
    }
    try Data("top secret".utf8).write(to: directory.appendingPathComponent("secret.txt"))
    var configuration = ServerConfiguration(port: 0, databasePath: server.databasePath, webRoot: server.webRoot.path)
    configure(&configuration)
    let app = try await buildApplication(configuration)
    return try await app.test(setup) { client in try await body(server, client) }
  }
}

extension TestResponse {
  var text: String { String(decoding: body.readableBytesView, as: UTF8.self) }
}

/// A valid document with `lines` lines, as clients send it.
func documentText(lines: Int, color: String = "#FF8C00") -> String {
  let line = #"{"begin":{"x":1,"y":2},"end":{"x":3.5,"y":4},"color":"\#(color)","width":10}"#
  return #"{"format":"touchtracker","version":1,"lines":["#
    + Array(repeating: line, count: lines).joined(separator: ",") + #"],"circles":[]}"#
}

/// The same document as the server stores and returns it: colors lowercase,
/// and every line with the id reading gave it (1, 2, 3...).
func storedDocumentText(lines: Int) -> String {
  let stored = (0..<lines).map {
    ##"{"id":\##($0 + 1),"begin":{"x":1,"y":2},"end":{"x":3.5,"y":4},"color":"#ff8c00","width":10}"##
  }
  return #"{"format":"touchtracker","version":1,"lines":["# + stored.joined(separator: ",") + #"],"circles":[]}"#
}

extension String {
  var buffer: ByteBuffer { ByteBuffer(string: self) }
}
