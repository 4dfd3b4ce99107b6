import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import TouchTrackerServer

/// Bad and slow clients of the live socket: each is told what it did wrong
/// and where, then closed, and harms no one else.
@Suite struct LiveLimitsTests {
  @Test(arguments: [
    ("{\"type\":", "Invalid JSON at line 1, column 9: unexpected end of input in message 2"),
    (#"[1]"#, "Expected a JSON object, got an array in message 2"),
    (
      #"{"type":"shout"}"#,
      "Unknown message type 'shout' at type; expected hello, changes, presence or ping in message 2"
    ),
    (#"{"type":"changes","changes":[]}"#, "Missing 'key' in changes in message 2"),
    (
      ##"{"type":"changes","key":"k","changes":[{"op":"add","lines":[{"id":1,"begin":{"x":1e300,"y":0},"end":{"x":0,"y":0},"color":"#000000","width":1}]}]}"##,
      "Number out of range at changes[0].lines[0].begin.x in message 2"
    ),
    (
      #"{"type":"changes","key":"no spaces","changes":[]}"#,
      "Invalid key at key: use 1 to 64 letters, digits, '_' or '-' in message 2"
    ),
    (
      #"{"type":"hello","since":-1,"client":"0000000a"}"#,
      "Invalid since at since: expected a revision like 3 in message 2"
    ),
    (
      #"{"type":"hello","since":0,"client":"me"}"#,
      "Invalid client at client: expected 8 hexadecimal digits in message 2"
    ),
    (
      #"{"type":"hello","since":0,"client":"0000000a","batches":"yes"}"#,
      "Invalid batches at batches: expected true or false in message 2"
    ),
    (
      #"{"type":"presence","lines":[{"begin":{"x":1,"y":2},"end":{"x":3,"y":4},"color":"red","width":2}]}"#,
      "Invalid color at lines[0].color: expected #rrggbb in message 2"
    ),
    (
      ##"{"type":"presence","lines":[{"begin":{"x":1,"y":2},"end":{"x":3},"color":"#000000","width":2}]}"##,
      "Missing lines[0].end.y in message 2"
    ),
  ])
  func aMalformedMessageGetsAnErrorNamingTheProblemAndWhereThenClose1008(message: String, error: String) async throws {
    try await Live.run { port, http in
      try await LiveTestClient.live(port: port) { client in
        _ = try await client.message(ofType: "welcome")
        try await client.send(message)
        let (messages, close) = try await client.untilClosed()
        #expect(messages == [#"{"type":"error","error":\#(ServerMessage.quoted(error))}"#])
        #expect(close == .close(code: 1008, reason: ""))
      }
      // Nothing of it was stored.
      try await http.execute(uri: "/api/drawings/d", method: .get) { #expect($0.status == .notFound) }
    }
  }

  @Test func presenceWithTooManyLinesIsRefused() async throws {
    try await Live.run { port, _ in
      try await LiveTestClient.live(port: port) { client in
        _ = try await client.message(ofType: "welcome")
        let line = ##"{"begin":{"x":1,"y":2},"end":{"x":3,"y":4},"color":"#000000","width":2}"##
        try await client.send(
          #"{"type":"presence","lines":["# + Array(repeating: line, count: 65).joined(separator: ",") + "]}")
        let (messages, close) = try await client.untilClosed()
        #expect(messages == [#"{"type":"error","error":"Too many lines at lines: 65, at most 64 in message 2"}"#])
        #expect(close == .close(code: 1008, reason: ""))
      }
    }
  }

  @Test func changesBeforeHelloAreRefused() async throws {
    try await Live.run { port, _ in
      try await LiveTestClient.live(port: port, since: nil) { client in
        try await client.send(Live.changes(key: "k", Live.add([1])))
        let (messages, close) = try await client.untilClosed()
        #expect(messages == [#"{"type":"error","error":"Message 1 is 'changes' before 'hello'"}"#])
        #expect(close == .close(code: 1008, reason: ""))
      }
    }
  }

  /// A socket that never says hello holds a connection and learns nothing
  /// (pings answered, a rename heard): it is told so and closed.
  /// Answering pings does not keep a socket that never said hello: the
  /// pong may come before the deadline or not (a busy machine), the close does.
  @Test func aSocketThatNeverSaysHelloIsClosed1008() async throws {
    try await Live.run(configure: { $0.liveLimits.helloDeadline = .milliseconds(1500) }) { port, _ in
      try await LiveTestClient.live(port: port, since: nil) { client in
        try await client.send(#"{"type":"ping"}"#)
        let (messages, close) = try await client.untilClosed()
        #expect(
          messages.last == #"{"type":"error","error":"No hello within 1.5 seconds: a live socket says hello first"}"#)
        #expect(messages.dropLast().allSatisfy { $0 == #"{"type":"pong"}"# }, "\(messages)")
        #expect(close == .close(code: 1008, reason: ""))
      }
    }
  }

  @Test func aSocketThatSaysHelloStaysOpenPastTheDeadline() async throws {
    try await Live.run(configure: { $0.liveLimits.helloDeadline = .milliseconds(1500) }) { port, _ in
      try await LiveTestClient.live(port: port) { client in
        _ = try await client.message(ofType: "welcome")
        try await Task.sleep(for: .milliseconds(2000))
        try await client.send(#"{"type":"ping"}"#)
        _ = try await client.message(ofType: "pong")
      }
    }
  }

  /// Closed 1003, the code RFC 6455 §7.4.1 names for a binary message to
  /// an endpoint that takes text only (it was 1008, a policy violation).
  @Test func aBinaryMessageIsRefused1003() async throws {
    try await Live.run { port, _ in
      try await LiveTestClient.live(port: port, since: nil) { client in
        try await client.sendFrame(opcode: 0x2, payload: [1, 2, 3])
        let (messages, close) = try await client.untilClosed()
        #expect(messages == [#"{"type":"error","error":"Binary message 1: send text frames, one JSON object each"}"#])
        #expect(close == .close(code: 1003, reason: ""))
      }
    }
  }

  /// 1 MiB is the limit whether the message comes in one frame or in
  /// fragments; past twice that in one frame NIO refuses the frame itself.
  @Test(arguments: [1, 3])
  func aMessageOverOneMebibyteGetsAnErrorAndClose1009(fragments: Int) async throws {
    try await Live.run { port, http in
      try await LiveTestClient.live(port: port) { client in
        _ = try await client.message(ofType: "welcome")
        let text = Array(Live.changes(key: "big", Live.add([1])).utf8)
        let payload = text.dropLast(2) + Array(repeating: UInt8(ascii: " "), count: 1024 * 1024) + text.suffix(2)
        let size = payload.count / fragments + 1
        for (index, start) in stride(from: 0, to: payload.count, by: size).enumerated() {
          let end = min(payload.count, start + size)
          try await client.sendFrame(
            opcode: index == 0 ? 0x1 : 0x0, fin: end == payload.count, payload: Array(payload[start..<end]))
        }
        let (messages, close) = try await client.untilClosed()
        #expect(
          messages == [
            #"{"type":"error","error":"Message 2 is larger than 1048576 bytes; send larger batches by POST .../changes"}"#
          ])
        #expect(close == .close(code: 1009, reason: "too big"))
      }
      try await http.execute(uri: "/api/drawings/d", method: .get) { #expect($0.status == .notFound) }
    }
  }

  @Test func aMessageJustUnderOneMebibyteIsStored() async throws {
    try await Live.run { port, _ in
      try await LiveTestClient.live(port: port) { client in
        _ = try await client.message(ofType: "welcome")
        let text = Live.changes(key: "big", Live.add([1]))
        let padded = String(text.dropLast(2)) + String(repeating: " ", count: 1024 * 1024 - text.utf8.count) + "]}"
        try await client.send(padded)
        #expect(try await client.receive() == .text(#"{"type":"ack","key":"big","revision":1}"#))
      }
    }
  }

  @Test func aClientOverTheMessageRateGetsAnErrorAndClose1008() async throws {
    try await Live.run(configure: {
      $0.liveLimits.messageRate = 0.001; $0.liveLimits.messageBurst = 5
    }) { port, _ in
      try await LiveTestClient.live(port: port) { client in
        for _ in 0..<6 { try await client.send(#"{"type":"presence","lines":[]}"#) }
        let (messages, close) = try await client.untilClosed()
        #expect(messages.first == #"{"type":"welcome","revision":0}"#)
        #expect(
          messages.last
            == #"{"type":"error","error":"Message 6 is over the limit of 0 messages a second (a burst of 5; each fragment counts as one)"}"#
        )
        #expect(close == .close(code: 1008, reason: ""))
      }
    }
  }

  @Test func presenceOverItsRateIsDroppedNotClosedButNoLinesAlwaysGoesThrough() async throws {
    try await Live.run(configure: {
      $0.liveLimits.presenceRate = 0.001; $0.liveLimits.presenceBurst = 2
    }) { port, _ in
      try await LiveTestClient.live(port: port, client: "0000000b") { b in
        _ = try await b.message(ofType: "welcome")
        try await LiveTestClient.live(port: port, client: "0000000a") { a in
          _ = try await a.message(ofType: "welcome")
          let line = ##"{"begin":{"x":1,"y":2},"end":{"x":3,"y":4},"color":"#000000","width":2}"##
          var relayed: [String] = []
          // Each presence is followed by a change, which b reads up to
          // before the next is sent: nothing of a's waits in b's queue to be
          // replaced (presence is coalesced per peer), so b gets every one relayed.
          for x in 0..<5 {
            let lines = x < 4 ? "[\(line.replacingOccurrences(of: #""x":1"#, with: #""x":\#(x)"#))]" : "[]"
            try await a.send(#"{"type":"presence","lines":\#(lines)}"#)
            try await a.send(Live.changes(key: "after\(x)", Live.add([x + 1])))
            #expect(try await a.receive() == .text(#"{"type":"ack","key":"after\#(x)","revision":\#(x + 1)}"#))
            let (_, before) = try await b.message(ofType: "changes")
            for message in before where message["type"] as? String == "presence" {
              let begin = (message["lines"] as? [[String: Any]])?.first?["begin"] as? [String: Any]
              relayed.append(begin.map { "x \($0["x"] as? Int ?? -1)" } ?? "none")
            }
          }
          #expect(relayed == ["x 0", "x 1", "none"])  // two within the rate, then the empty one
        }
      }
    }
  }

  /// A client that never reads: the sender and another reader go on,
  /// answered batch by batch.
  @Test func aClientThatNeverReadsStallsNoOne() async throws {
    let batches = 8
    try await Live.run(configure: {
      $0.liveLimits.queuedMessages = 20
      $0.liveLimits.queuedBytes = 256 * 1024
      $0.liveLimits.closeGrace = .milliseconds(200)
    }) { port, _ in
      try await LiveTestClient.live(port: port, client: "0000000c", receiveBuffer: 4096, deadline: .seconds(120)) {
        slow in
        try await LiveTestClient.live(port: port, client: "0000000b", deadline: .seconds(120)) { reader in
          _ = try await reader.message(ofType: "welcome")
          try await LiveTestClient.live(port: port, client: "0000000a", deadline: .seconds(120)) { sender in
            _ = try await sender.message(ofType: "welcome")
            // 8 batches of 2,000 lines (~190 KB each, 1.5 MB in all): more
            // than the slow client's small socket buffers and its queue hold.
            for batch in 0..<batches {
              let ids = Array((batch * 2000 + 1)...(batch * 2000 + 2000))
              try await sender.send(Live.changes(key: "s\(batch)", Live.add(ids)))
              #expect(try await sender.message(ofType: "ack").message["revision"] as? Int == batch + 1)
              #expect(try await reader.message(ofType: "changes").message["revision"] as? Int == batch + 1)
            }
          }
        }
        // Whether it was closed depends on how much the kernel buffered for
        // it (here it took all 1.5 MB); `aFullQueueClosesTheClient` pins the queue.
        _ = slow
      }
    }
  }

  @Test(
    arguments: [
      (nil, "http://evil.example", false), ("rebind.attacker.example", nil, false),
      (nil, "http://127.0.0.1:PORT", true), (nil, "http://127.0.0.1:1", false), ("localhost", nil, true),
      (nil, nil, true),
    ] as [(String?, String?, Bool)])
  func theUpgradeChecksHostAndOriginAsTheAPIDoes(host: String?, origin: String?, upgraded: Bool) async throws {
    try await Live.run { port, _ in
      let origin = origin?.replacingOccurrences(of: "PORT", with: String(port))
      try await LiveTestClient.connect(
        port: port, path: "/api/drawings/d/live", host: host, headers: origin.map { ["Origin": $0] } ?? [:]
      ) { client in
        #expect(client.isUpgraded == upgraded, "\(client.responseHead)")
        if !upgraded { #expect(client.responseHead.hasPrefix("HTTP/1.1 400")) }
      }
    }
  }

  @Test func aPlainGetOfTheLivePathAnswers426() async throws {
    try await Live.run { _, http in
      try await http.execute(uri: "/api/drawings/d/live", method: .get) {
        #expect($0.status == .upgradeRequired)
        #expect($0.text == #"{"error":"GET /api/drawings/d/live is a WebSocket: send 'Upgrade: websocket'"}"#)
      }
    }
  }
}
