import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import TouchTrackerServer

/// RFC 6455 framing on the live socket, frame by frame over a real TCP
/// connection to a server on loopback: what a browser never sends is
/// closed with the RFC's code, never taken or silently dropped.
@Suite struct LiveFramingTests {
  static let ping = Array(#"{"type":"ping"}"#.utf8)

  /// §5.1: "a server MUST close the connection upon receiving a frame that
  /// is not masked"; NIO and hummingbird-websocket took it
  /// (`WebSocketFrameCheck`). A control frame as well as a message.
  @Test(arguments: [UInt8(0x1), 0x9])
  func anUnmaskedFrameIsClosed1002(opcode: UInt8) async throws {
    try await Live.run { port, http in
      try await LiveTestClient.live(port: port) { client in
        _ = try await client.message(ofType: "welcome")
        let payload = opcode == 0x1 ? Array(Live.changes(key: "k1", Live.add([1])).utf8) : [1, 2]
        try await client.sendFrame(opcode: opcode, masked: false, payload: payload)
        let (messages, close) = try await client.untilClosed()
        #expect(messages.isEmpty)
        #expect(close == .close(code: 1002, reason: "client frames must be masked (RFC 6455 5.1)"))
      }
      try await http.execute(uri: "/api/drawings/d", method: .get) { #expect($0.status == .notFound) }
    }
  }

  /// §8.1: a text message that is not UTF-8 fails the connection with 1007.
  @Test(arguments: [1, 2])
  func aTextMessageThatIsNotUTF8IsClosed1007(fragments: Int) async throws {
    try await Live.run { port, _ in
      try await LiveTestClient.live(port: port) { client in
        _ = try await client.message(ofType: "welcome")
        // A lone continuation byte, then a cut-off two-byte sequence.
        let payload = Array(#"{"type":"ping","note":""#.utf8) + [0x80, 0x41, 0xC3] + Array(#""}"#.utf8)
        if fragments == 1 {
          try await client.sendFrame(opcode: 0x1, payload: payload)
        } else {
          try await client.sendFrame(opcode: 0x1, fin: false, payload: Array(payload.prefix(10)))
          try await client.sendFrame(opcode: 0x0, payload: Array(payload.dropFirst(10)))
        }
        let (messages, close) = try await client.untilClosed()
        #expect(
          messages == [
            #"{"type":"error","error":"Message 2 is not valid UTF-8 (RFC 6455 §8.1: text messages are UTF-8)"}"#
          ])
        #expect(close == .close(code: 1007, reason: ""))
      }
    }
  }

  /// §5.4: a continuation belongs to a message begun by a text frame.
  @Test func aContinuationWithNoMessageBegunIsClosed1002() async throws {
    try await Live.run { port, _ in
      try await LiveTestClient.live(port: port) { client in
        _ = try await client.message(ofType: "welcome")
        try await client.sendFrame(opcode: 0x0, payload: Self.ping)
        let (messages, close) = try await client.untilClosed()
        #expect(
          messages == [
            #"{"type":"error","error":"A continuation frame after message 1 with no message begun (RFC 6455 §5.4)"}"#
          ])
        #expect(close == .close(code: 1002, reason: ""))
      }
    }
  }

  /// §5.4: fragments of one message are not interleaved with another
  /// message; a new text frame before the final fragment dropped the
  /// fragments silently.
  @Test func aTextFrameInTheMiddleOfAFragmentedMessageIsClosed1002() async throws {
    try await Live.run { port, http in
      try await LiveTestClient.live(port: port) { client in
        _ = try await client.message(ofType: "welcome")
        let changes = Array(Live.changes(key: "k1", Live.add([1])).utf8)
        try await client.sendFrame(opcode: 0x1, fin: false, payload: Array(changes.prefix(20)))
        try await client.sendFrame(opcode: 0x1, payload: Self.ping)
        let (messages, close) = try await client.untilClosed()
        #expect(
          messages == [
            #"{"type":"error","error":"Message 3 began while message 2 still awaited its final fragment"#
              + #" (RFC 6455 §5.4: fragments of one message are not interleaved)"}"#
          ])
        #expect(close == .close(code: 1002, reason: ""))
      }
      try await http.execute(uri: "/api/drawings/d", method: .get) { #expect($0.status == .notFound) }
    }
  }

  /// Every frame counts in the message rate: empty continuations cost
  /// nothing before, 2.2 million went through in 3 s.
  @Test func emptyContinuationsCountInTheRate() async throws {
    try await Live.run(configure: {
      $0.liveLimits.messageRate = 0.001; $0.liveLimits.messageBurst = 5
    }) { port, _ in
      try await LiveTestClient.live(port: port) { client in
        try await client.sendFrame(opcode: 0x1, fin: false, payload: Array(Self.ping.prefix(5)))
        for _ in 0..<10 { try await client.sendFrame(opcode: 0x0, fin: false, payload: []) }
        let (messages, close) = try await client.untilClosed()
        #expect(messages.first == #"{"type":"welcome","revision":0}"#)
        #expect(
          messages.last
            == #"{"type":"error","error":"Message 2 is over the limit of 0 messages a second"#
            + #" (a burst of 5; each fragment counts as one)"}"#)
        #expect(close == .close(code: 1008, reason: ""))
      }
    }
  }

  /// The rest of §5 and §7 that a browser never sends, each closed with
  /// the RFC's code: reserved bits, reserved opcodes, a fragmented or
  /// oversized control frame, a close frame with a reason that is not
  /// UTF-8 or a code no one may send. Before, the close with a reason that
  /// is not UTF-8 was answered 1000 (the library's `validateUTF8` was off).
  @Test(
    arguments: [
      ("RSV1 set", UInt8(0x40 | 0x1), Array(#"{"type":"ping"}"#.utf8), UInt16(1002)),
      ("reserved opcode 3", 0x3, [1], 1002),
      ("reserved control opcode 11", 0xB, [1], 1002),
      ("a ping in fragments", 0x9 & 0x7F, [1], 1002),
      ("a ping of 126 bytes", 0x9, Array(repeating: 1, count: 126), 1002),
      // §7.1.6: 1002 or 1007 (hummingbird-websocket answers 1002).
      ("a close whose reason is not UTF-8", 0x8, [0x03, 0xE8, 0xFF, 0xFE], 1002),
      ("a close with code 999", 0x8, [0x03, 0xE7], 1002),
      ("a close with a one-byte body", 0x8, [0x03], 1002),
    ] as [(String, UInt8, [UInt8], UInt16)])
  func aFrameAgainstSection5Or7IsClosedWithTheRFCsCode(
    _ what: String, firstByteOpcode: UInt8, payload: [UInt8], code: UInt16
  ) async throws {
    try await Live.run { port, _ in
      try await LiveTestClient.live(port: port) { client in
        _ = try await client.message(ofType: "welcome")
        let fin = what != "a ping in fragments"
        try await client.sendFrame(opcode: firstByteOpcode, fin: fin, payload: payload)
        let (_, close) = try await client.untilClosed()
        guard case .close(let received, _) = close else {
          Issue.record("\(what): no close frame, \(close)")
          return
        }
        #expect(received == code, "\(what)")
      }
    }
  }

  /// What a client may do: a message in fragments, with a ping between
  /// them (§5.4: control frames may be injected), is one message.
  @Test func aFragmentedMessageWithAPingBetweenIsTaken() async throws {
    try await Live.run { port, _ in
      try await LiveTestClient.live(port: port) { client in
        _ = try await client.message(ofType: "welcome")
        let changes = Array(Live.changes(key: "k1", Live.add([1])).utf8)
        try await client.sendFrame(opcode: 0x1, fin: false, payload: Array(changes.prefix(20)))
        try await client.sendFrame(opcode: 0x9, payload: [7])
        try await client.sendFrame(opcode: 0x0, fin: false, payload: [])
        try await client.sendFrame(opcode: 0x0, payload: Array(changes.dropFirst(20)))
        #expect(try await client.receive() == .text(#"{"type":"ack","key":"k1","revision":1}"#))
      }
    }
  }
}
