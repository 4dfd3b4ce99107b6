import Foundation
import Hummingbird
import HummingbirdTesting
import NIOConcurrencyHelpers
import Testing
import TouchTrackerTestSupport

@testable import TouchTrackerServer

/// The budget for request bodies in flight (`BodyBudget`), over real
/// sockets: a body is counted from before it is read until its handler is
/// done, one that does not fit beside the others gets 503 with
/// `Retry-After` before it is read, one larger than the whole budget 413.
@Suite struct BodyBudgetTests {
  static let budget = 100_000

  /// Runs `body` on a thread of its own (its sockets block) with the port
  /// of a live server whose budget is `Self.budget`, and that budget.
  static func live(_ body: @escaping @Sendable (Int, BodyBudget) throws -> Void) async throws {
    let budget = NIOLockedValueBox<BodyBudget?>(nil)
    try await TestServer.run(
      .live,
      configure: {
        $0.timeouts = ConnectionGuardTests.patient
        $0.bodyBudget = Self.budget
        budget.withLockedValue { [configured = $0.budget] in $0 = configured }
      }
    ) { _, client in
      let port = try #require(client.port)
      let budget = try #require(budget.withLockedValue { $0 })
      try await onAThreadOfItsOwn { try body(port, budget) }
    }
  }

  /// A document of exactly `size` bytes: one line, padded with spaces
  /// (whitespace between JSON tokens).
  static func document(size: Int) -> String {
    let text = documentText(lines: 1)
    return String(text.dropLast()) + String(repeating: " ", count: size - text.utf8.count) + "}"
  }

  static func put(_ name: String, length: Int, close: Bool = false) -> String {
    "PUT /api/drawings/\(name) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
      + "Content-Length: \(length)\r\n\(close ? "Connection: close\r\n" : "")\r\n"
  }

  struct TimedOut: Error, CustomStringConvertible { var description: String }

  /// Waits (at most 20 s, so a broken server fails the test instead of
  /// hanging it) until `condition` holds.
  static func waitUntil(_ what: String, _ condition: () -> Bool) throws {
    let deadline = Date().addingTimeInterval(20)
    while !condition() {
      guard Date() < deadline else { throw TimedOut(description: "Never happened: \(what)") }
      usleep(5_000)
    }
  }

  @Test func aBodyThatDoesNotFitGets503AndFitsOnceTheOtherIsDone() async throws {
    try await Self.live { port, budget in
      // 70 KB in flight: its head and half its body sent, the rest held back.
      let first = Self.document(size: 70_000)
      let holder = try RawConnection(port: port, readTimeout: 20)
      holder.send(Self.put("first", length: 70_000) + first.prefix(35_000))
      try Self.waitUntil("the first body is counted") { budget.inUse == 70_000 }

      // 40 KB more does not fit in 100 KB: refused before it is read.
      let second = Self.document(size: 40_000)
      let refused = try RawConnection(port: port, readTimeout: 20)
      refused.send(Self.put("second", length: 40_000) + second)
      let answer = try refused.readUntilClosed()
      #expect(answer.hasPrefix("HTTP/1.1 503"), "\(answer)")
      #expect(answer.lowercased().contains("retry-after: 2\r\n"), "\(answer)")
      #expect(answer.lowercased().contains("connection: close\r\n"), "\(answer)")
      #expect(answer.contains("(0.1 MiB, --body-budget): send this one again in a moment"), "\(answer)")

      // The first one finishes and is stored; its bytes are given back.
      holder.send(String(first.dropFirst(35_000)))
      #expect(try holder.readResponse().hasPrefix("HTTP/1.1 200"))
      try Self.waitUntil("the first body is given back") { budget.inUse == 0 }

      let again = try RawConnection(port: port, readTimeout: 20)
      again.send(Self.put("second", length: 40_000, close: true) + second)
      let stored = try again.readUntilClosed()
      #expect(stored.hasPrefix("HTTP/1.1 200"), "\(stored)")
    }
  }

  /// A body larger than the whole budget could never fit: 413 at once,
  /// naming the budget, with nothing else in flight.
  @Test func aBodyLargerThanTheWholeBudgetGets413() async throws {
    try await Self.live { port, budget in
      let connection = try RawConnection(port: port, readTimeout: 20)
      connection.send(Self.put("big", length: 150_000))
      let answer = try connection.readUntilClosed()
      #expect(answer.hasPrefix("HTTP/1.1 413"), "\(answer)")
      #expect(
        answer.contains("larger than this server's budget for bodies in flight (0.1 MiB, --body-budget)"),
        "\(answer)")
      try Self.waitUntil("nothing is counted") { budget.inUse == 0 }
    }
  }

  /// A chunked body is counted as it arrives: past the budget it is cut
  /// off with 413 as well, and what it had counted is given back.
  @Test func aChunkedBodyIsCountedAsItArrives() async throws {
    try await Self.live { port, budget in
      let connection = try RawConnection(port: port, readTimeout: 20)
      connection.send(
        "POST /api/drawings/c/changes HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n")
      let chunk = String(repeating: " ", count: 30_000)
      for _ in 0..<4 { guard connection.send(String(30_000, radix: 16) + "\r\n" + chunk + "\r\n") else { break } }
      let answer = try connection.readUntilClosed()
      #expect(answer.hasPrefix("HTTP/1.1 413"), "\(answer)")
      #expect(answer.contains("--body-budget"), "\(answer)")
      try Self.waitUntil("the chunks are given back") { budget.inUse == 0 }
    }
  }

  /// What a body counted is given back however its request ends: stored,
  /// refused as malformed, or cut off by the client halfway.
  @Test func theBytesAreGivenBackWhenARequestFailsOrIsCutOff() async throws {
    try await Self.live { port, budget in
      let bad = try RawConnection(port: port, readTimeout: 20)
      bad.send(Self.put("bad", length: 5, close: true) + "nope!")
      #expect(try bad.readUntilClosed().hasPrefix("HTTP/1.1 400"))
      try Self.waitUntil("the malformed body is given back") { budget.inUse == 0 }

      var cut: RawConnection? = try RawConnection(port: port, readTimeout: 20)
      cut?.send(Self.put("cut", length: 60_000) + String(repeating: " ", count: 1000))
      try Self.waitUntil("the cut body is counted") { budget.inUse == 60_000 }
      cut = nil  // closes the socket halfway through the body
      try Self.waitUntil("the cut body is given back") { budget.inUse == 0 }
    }
  }
}
