import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import TouchTrackerTestSupport

@testable import TouchTrackerServer

/// What a real socket sees: slow or broken clients are answered or closed
/// within the configured timeouts (short ones here), never held open.
@Suite struct ConnectionGuardTests {
  static let short = ConnectionTimeouts(
    header: .milliseconds(300), body: .milliseconds(500), linger: .milliseconds(200), shutdownBody: .milliseconds(200))
  /// For tests whose client must send a request before the header timeout:
  /// its thread may wait that long between connecting and sending on a
  /// loaded 2-core machine, so not 300 ms.
  static let shortBody = ConnectionTimeouts(
    header: .seconds(3), body: .milliseconds(500), linger: .milliseconds(200), shutdownBody: .milliseconds(200))
  /// For answers that must come before any timeout (a 400, a 413): time
  /// limits a loaded machine cannot reach first (it did with 500 ms, and
  /// 3 s is what a stalled pool thread was seen to lose elsewhere).
  static let patient = ConnectionTimeouts(
    header: .seconds(60), body: .seconds(60), linger: .milliseconds(200), shutdownBody: .milliseconds(200))

  /// Runs `body` with the port of a live server. The body's socket calls
  /// block, so it runs on a thread of its own: on one of the few threads of
  /// Swift's cooperative pool it would starve the in-process server it talks to.
  static func live(
    timeouts: ConnectionTimeouts = Self.short,
    maximumWaitingConnections: Int? = nil,
    _ body: @escaping @Sendable (Int) throws -> Void
  ) async throws {
    try await TestServer.run(
      .live,
      configure: {
        $0.timeouts = timeouts
        $0.maximumWaitingConnections = maximumWaitingConnections
      }
    ) { _, client in
      let port = try #require(client.port)
      try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
        Thread.detachNewThread { continuation.resume(with: Result { try body(port) }) }
      }
    }
  }

  /// Pipelined requests are answered in order, each: the last one's
  /// `Connection: close` closes the connection after its own answer, not
  /// after the first (which left the second done but unanswered).
  @Test func pipelinedRequestsAreEachAnsweredBeforeAClose() async throws {
    try await Self.live(timeouts: Self.patient) { port in
      let connection = try RawConnection(port: port, readTimeout: 20)
      let get = "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
      connection.send(get + get + "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
      let received = try connection.readUntilClosed()
      #expect(received.components(separatedBy: "HTTP/1.1 200 OK").count - 1 == 3, "\(received)")
    }
  }

  /// Requests sent after one that says `Connection: close` are not run:
  /// their answers could never be sent.
  @Test func requestsPipelinedAfterACloseAreNotRun() async throws {
    try await Self.live(timeouts: Self.patient) { port in
      let connection = try RawConnection(port: port, readTimeout: 20)
      let document = #"{"format":"touchtracker","version":1,"lines":[],"circles":[]}"#
      let put =
        "PUT /api/drawings/after-close HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        + "Content-Length: \(document.utf8.count)\r\n\r\n\(document)"
      connection.send("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n" + put)
      let received = try connection.readUntilClosed()
      #expect(received.components(separatedBy: "HTTP/1.1 ").count - 1 == 1, "\(received)")
      let check = try RawConnection(port: port, readTimeout: 20)
      check.send("GET /api/drawings/after-close HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
      #expect(try check.readUntilClosed().hasPrefix("HTTP/1.1 404"), "the PUT after the close was not run")
    }
  }

  /// Requests NIO's parser refuses get a 400 that says so, and the
  /// connection closes at once (they were left open, unanswered).
  @Test(arguments: [
    ("a control character in a header", "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Bad: a\u{01}b\r\n\r\n"),
    ("raw UTF-8 in the path", "GET /é HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"),
    (
      "Content-Length with Transfer-Encoding",
      "POST /api/drawings/d/changes HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 3\r\n"
        + "Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n"
    ),
    (
      "two Content-Lengths",
      "PUT /api/drawings/d HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}"
    ),
    ("a negative Content-Length", "PUT /api/drawings/d HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: -1\r\n\r\n"),
    ("a lower-case method", "get / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"),
    (
      "a 100 KB header", "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: \(String(repeating: "a", count: 100_000))\r\n\r\n"
    ),
  ])
  func aRequestTheParserRefusesIsAnswered400AndClosed(what: String, request: String) async throws {
    try await Self.live(timeouts: Self.patient) { port in
      let connection = try RawConnection(port: port, readTimeout: 5)
      connection.send(request)
      let received = try connection.readUntilClosed()
      #expect(received.hasPrefix("HTTP/1.1 400 Bad Request"), "\(what): \(received)")
      #expect(received.contains(#"{"error":"Malformed HTTP request"#), "\(what): \(received)")
    }
  }

  @Test func aConnectionThatSendsHalfAHeaderIsClosedAfterTheHeaderTimeout() async throws {
    try await Self.live { port in
      let connection = try RawConnection(port: port, readTimeout: 20)
      connection.send("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
      #expect(try connection.readUntilClosed() == "")
    }
  }

  @Test func anIdleKeepAliveConnectionIsClosedAfterTheHeaderTimeout() async throws {
    try await Self.live(timeouts: Self.shortBody) { port in
      let connection = try RawConnection(port: port, readTimeout: 20)
      connection.send("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
      #expect(try connection.readResponse().hasPrefix("HTTP/1.1 200 OK"))
      #expect(try connection.readUntilClosed() == "")
    }
  }

  @Test func aBodyThatStopsArrivingGets408AndTheConnectionCloses() async throws {
    try await Self.live(timeouts: Self.shortBody) { port in
      let connection = try RawConnection(port: port, readTimeout: 20)
      connection.send("PUT /api/drawings/d HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n\r\n{\"format\"")
      let response = try connection.readUntilClosed()
      #expect(response.hasPrefix("HTTP/1.1 408 Request Timeout"))
      #expect(response.lowercased().contains("connection: close"))
      #expect(response.contains(#"{"error":"Request body not received within the time limit"}"#))
    }
  }

  @Test func aMalformedChunkSizeIs400NotA500() async throws {
    try await Self.live(timeouts: Self.patient) { port in
      let connection = try RawConnection(port: port, readTimeout: 20)
      connection.send(
        "PUT /api/drawings/d HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n")
      let response = try connection.readUntilClosed()
      #expect(response.hasPrefix("HTTP/1.1 400 Bad Request"), "\(response)")
      #expect(!response.contains("500"))
    }
  }

  @Test func after413TheServerClosesTheConnectionInsteadOfWaitingForTheBody() async throws {
    try await Self.live(timeouts: Self.patient) { port in
      let connection = try RawConnection(port: port, readTimeout: 20)
      // A document PUT takes up to 256 MiB; past it, 413 at once.
      let length = APIError.maximumDocumentBodySize + 1
      connection.send("PUT /api/drawings/d HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: \(length)\r\n\r\n{")
      let response = try connection.readUntilClosed()
      #expect(response.hasPrefix("HTTP/1.1 413"), "\(response.prefix(200))")
      #expect(response.lowercased().contains("connection: close"))
    }
  }

  @Test func http10WithoutKeepAliveIsClosedAfterTheResponse() async throws {
    try await Self.live(timeouts: Self.shortBody) { port in
      let connection = try RawConnection(port: port, readTimeout: 20)
      connection.send("GET /healthz HTTP/1.0\r\n\r\n")
      let response = try connection.readUntilClosed()
      #expect(response.contains(#""status":"ok""#))
      #expect(response.lowercased().contains("connection: close"))
    }
  }
}
