import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import TouchTrackerServer

/// What the live tests share: a real server on a loopback port, and the
/// messages they send.
enum Live {
  /// Runs `body` with a live server's port and an HTTP client to it.
  static func run(
    configure: @escaping @Sendable (inout ServerConfiguration) -> Void = { _ in },
    _ body: @escaping @Sendable (_ port: Int, _ http: any TestClientProtocol) async throws -> Void
  ) async throws {
    try await run(configure: configure) { _, port, http in try await body(port, http) }
  }

  /// `run`, with the server's directory (its database) too.
  static func run(
    configure: @escaping @Sendable (inout ServerConfiguration) -> Void = { _ in },
    _ body: @escaping @Sendable (_ server: TestServer, _ port: Int, _ http: any TestClientProtocol) async throws -> Void
  ) async throws {
    // The test's HTTP client keeps one keep-alive connection, idle while
    // the sockets work: on a loaded machine past the server's 10 s idle
    // time, and the server closed it ("I/O on closed channel" on the next
    // request, seen in CI in LiveAccessTests). The tests' servers keep it
    // longer; a test that wants a short header timeout sets it in `configure`.
    // The close grace too: after an error the server writes it and its close
    // frame, racing a 2 s timer that cuts the socket; on a machine whose few
    // pool threads stall for 2 s the timer can win and the client misses the
    // error. A test of the grace itself sets a short one.
    let configureWithLongIdle: @Sendable (inout ServerConfiguration) -> Void = { configuration in
      configuration.timeouts.header = .seconds(300)
      configuration.liveLimits.closeGrace = .seconds(30)
      configure(&configuration)
    }
    try await TestServer.run(.live, configure: configureWithLongIdle) { server, client in
      try await body(server, try #require(client.port), client)
    }
  }

  static func line(_ id: Int, x: Int = 1) -> String {
    ##"{"id":\##(id),"begin":{"x":\##(x),"y":2},"end":{"x":3,"y":4},"color":"#000000","width":10}"##
  }

  /// An add of lines with these ids, with `bounds` as the page sends it.
  static func add(_ ids: [Int], x: Int = 1) -> String {
    #"{"op":"add","lines":["# + ids.map { line($0, x: x) }.joined(separator: ",")
      + #"],"bounds":{"x":0,"y":0,"width":5,"height":5}}"#
  }

  static func changes(key: String, _ changes: String...) -> String {
    #"{"type":"changes","key":"\#(key)","changes":["# + changes.joined(separator: ",") + "]}"
  }

  static func document(_ http: any TestClientProtocol, _ name: String = "d") async throws -> String {
    try await http.execute(uri: "/api/drawings/\(name)", method: .get) { $0.text }
  }

  @discardableResult
  static func post(
    _ http: any TestClientProtocol, _ body: String, key: String? = nil, name: String = "d"
  ) async throws -> String {
    var headers: HTTPFields = [:]
    if let key { headers[.idempotencyKey] = key }
    return try await http.execute(
      uri: "/api/drawings/\(name)/changes", method: .post, headers: headers, body: ByteBuffer(string: body)
    ) { $0.text }
  }
}
