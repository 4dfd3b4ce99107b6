import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import TouchTrackerServer

/// The rest of RFC 6455 §5 (framing) and §8 (UTF-8) on the live socket,
/// frame by frame over a real TCP connection, beside `LiveFramingTests`:
/// every frame a client may send is taken or answered as the RFC says,
/// every other one closed with the RFC's code. RELIABILITY.md lists the
/// cases with their results.
@Suite struct LiveFramingRFCTests {
  static let ping = Array(#"{"type":"ping"}"#.utf8)

  /// Each sent after `welcome`; each is answered with a close frame with
  /// the code given and then the end of the connection.
  @Test(
    arguments: [
      // §5.2: "RSV1, RSV2, RSV3 ... MUST be 0 unless an extension is negotiated".
      ("RSV2 set", maskedFrame(0x80 | 0x20 | 0x1, ping), UInt16(1002)),
      ("RSV3 set", maskedFrame(0x80 | 0x10 | 0x1, ping), 1002),
      // A ping with RSV1 was answered with a pong; now `WebSocketFrameCheck` refuses it.
      ("RSV1 on a ping", maskedFrame(0x80 | 0x40 | 0x9, [1]), 1002),
      ("RSV3 on a close", maskedFrame(0x80 | 0x10 | 0x8, closeBody(1000)), 1002),
      // §5.2: opcodes 3-7 and B-F are reserved (3 and B: LiveFramingTests).
      ("reserved opcode 4", maskedFrame(0x84, [1]), 1002),
      ("reserved opcode 5", maskedFrame(0x85, []), 1002),
      ("reserved opcode 6", maskedFrame(0x86, [1]), 1002),
      ("reserved opcode 7", maskedFrame(0x87, [1]), 1002),
      ("reserved control opcode 12", maskedFrame(0x8C, [1]), 1002),
      ("reserved control opcode 13", maskedFrame(0x8D, []), 1002),
      ("reserved control opcode 14", maskedFrame(0x8E, [1]), 1002),
      ("reserved control opcode 15", maskedFrame(0x8F, [1]), 1002),
      // §5.5: control frames are at most 125 bytes and not fragmented.
      ("a pong of 126 bytes", maskedFrame(0x8A, Array(repeating: 1, count: 126)), 1002),
      ("a close of 126 bytes", maskedFrame(0x88, closeBody(1000, String(repeating: "a", count: 124))), 1002),
      ("a pong in fragments", maskedFrame(0x0A, [1]), 1002),
      ("a close in fragments", maskedFrame(0x08, closeBody(1000)), 1002),
      // §7.4: codes no endpoint may send: under 1000, 1004-1006 (reserved,
      // or never on the wire), 1015 (TLS), unassigned 1016-2999, and past 4999.
      ("a close with code 0", maskedFrame(0x88, closeBody(0)), 1002),
      ("a close with code 1004", maskedFrame(0x88, closeBody(1004)), 1002),
      ("a close with code 1005", maskedFrame(0x88, closeBody(1005)), 1002),
      ("a close with code 1006", maskedFrame(0x88, closeBody(1006)), 1002),
      ("a close with code 1015", maskedFrame(0x88, closeBody(1015)), 1002),
      ("a close with code 1016", maskedFrame(0x88, closeBody(1016)), 1002),
      ("a close with code 2999", maskedFrame(0x88, closeBody(2999)), 1002),
      ("a close with code 5000", maskedFrame(0x88, closeBody(5000)), 1002),
      ("a close with code 65535", maskedFrame(0x88, closeBody(65535)), 1002),
      // §5.5.1 with §8.1: a close reason is UTF-8 (its first byte bad: LiveFramingTests).
      (
        "a close whose reason ends in half a character", maskedFrame(0x88, Array(closeBody(1000, "é").dropLast())), 1002
      ),
      // §5.2: "the most significant bit MUST be 0" in a 64-bit length
      // (`WebSocketLengthCheck`; NIO's decoder alone answered 1009).
      ("a 64-bit length with its top bit set", maskedFrame(0x81, ping, length: .sixtyFourBitsWithTheTopBitSet), 1002),
      // §5.2: "the minimal number of bytes MUST be used to encode the length".
      ("a 16-bit length under 126", maskedFrame(0x81, ping, length: .sixteenBits), 1002),
      ("a 64-bit length under 65,536", maskedFrame(0x81, ping, length: .sixtyFourBits), 1002),
      ("a ping with a 16-bit length", maskedFrame(0x89, [1], length: .sixteenBits), 1002),
      (
        "a longer length after a frame taken in the same write",
        maskedFrame(0x8A, [1]) + maskedFrame(0x01, ping.dropLast(), length: .sixtyFourBits), 1002
      ),
      ("a 64-bit length of 2^62", maskedFrame(0x81, ping, length: .sixtyFourBitsWithBit62Set), 1009),
      // §7.4.1: 1003 for data of a type the endpoint does not take.
      ("a binary message", maskedFrame(0x82, ping), 1003),
      ("a binary message in fragments", maskedFrame(0x02, ping), 1003),
      // §8.1: text is UTF-8 (in one frame and split: LiveFramingTests).
      ("text with a surrogate (CESU-8)", maskedFrame(0x81, [0x22, 0xED, 0xA0, 0x80, 0x22]), 1007),
      ("text with an overlong encoding", maskedFrame(0x81, [0x22, 0xC0, 0xAF, 0x22]), 1007),
      ("text past U+10FFFF", maskedFrame(0x81, [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22]), 1007),
      ("text ending in half a character", maskedFrame(0x81, [0x22, 0xE2, 0x82]), 1007),
      // §8.1 per fragment (Autobahn 6.4): a fragment that can never be
      // UTF-8 fails at once. The next frame here begins a new message,
      // which is 1002 if the bad fragment went unseen until the end.
      ("a fragment past U+10FFFF", maskedFrame(0x01, [0x22, 0xF4, 0x90]) + maskedFrame(0x81, ping), 1007),
      ("a fragment with a surrogate's start", maskedFrame(0x01, [0x22, 0xED, 0xA0]) + maskedFrame(0x81, ping), 1007),
      ("a fragment with a stray continuation byte", maskedFrame(0x01, [0x22, 0x80]) + maskedFrame(0x81, ping), 1007),
      (
        "a character's start in one fragment that the next cannot complete",
        maskedFrame(0x01, Array("\"κόσμε".utf8) + [0xF4]) + maskedFrame(0x00, [0x90]) + maskedFrame(0x81, ping), 1007
      ),
      (
        "text whose fragments end in half a character",
        maskedFrame(0x01, [0x22, 0x61]) + maskedFrame(0x80, [0x22, 0xE2, 0x82]),
        1007
      ),
    ] as [(String, [UInt8], UInt16)])
  func aFrameAgainstTheRFCIsClosedWithItsCode(_ what: String, bytes: [UInt8], code: UInt16) async throws {
    try await Live.run { port, _ in
      try await LiveTestClient.live(port: port) { client in
        _ = try await client.message(ofType: "welcome")
        try await client.sendRaw(bytes)
        let (_, close) = try await client.untilClosed()
        guard case .close(let received, _) = close else {
          Issue.record("\(what): no close frame, \(close)")
          return
        }
        #expect(received == code, "\(what)")
        // Answered as a client does (§5.5.1); the server then ends the connection.
        try? await client.sendRaw(maskedFrame(0x88, closeBody(received)))
        #expect(try await client.frame() == nil, "\(what): the connection ends after the close frames")
      }
    }
  }

  /// §5.5.2: a ping is answered by a pong with its payload (empty, one
  /// byte, the 125 a control frame may hold), the pong unmasked (§5.1).
  @Test(arguments: [0, 1, 125])
  func aPingIsAnsweredWithAPongOfItsPayload(bytes: Int) async throws {
    try await Live.run { port, _ in
      try await LiveTestClient.live(port: port) { client in
        _ = try await client.message(ofType: "welcome")
        let payload = (0..<bytes).map { UInt8(truncatingIfNeeded: $0 * 7) }
        try await client.sendRaw(maskedFrame(0x89, payload))
        while let frame = try await client.frame() {
          guard frame.opcode != 0xA else {
            #expect(frame.payload == payload)
            return
          }
          #expect(frame.opcode == 0x9 || frame.opcode == 0x1, "only the server's own pings and messages before it")
        }
        Issue.record("The connection ended with no pong")
      }
    }
  }

  /// §5.5.3: an unsolicited pong is not answered, and the socket goes on.
  @Test func anUnsolicitedPongIsIgnored() async throws {
    try await Live.run { port, _ in
      try await LiveTestClient.live(port: port) { client in
        _ = try await client.message(ofType: "welcome")
        try await client.sendRaw(maskedFrame(0x8A, [1, 2, 3]))
        try await client.sendRaw(maskedFrame(0x81, Self.ping))
        #expect(try await client.receive() == .text(#"{"type":"pong"}"#))
      }
    }
  }

  /// §5.5.1: a close with a code an endpoint may send, or none, is answered
  /// with a close (§5.5.1: "typically echoing the status code it received";
  /// 1000 is as good), and the connection ends.
  @Test(
    arguments: [
      ("no body", [UInt8]()),
      ("1000", closeBody(1000)), ("1001", closeBody(1001)), ("1002", closeBody(1002)), ("1003", closeBody(1003)),
      ("1007", closeBody(1007)), ("1008", closeBody(1008)), ("1009", closeBody(1009)), ("1010", closeBody(1010)),
      ("1011", closeBody(1011)), ("3000", closeBody(3000)), ("3999", closeBody(3999)), ("4000", closeBody(4000)),
      ("4999", closeBody(4999)),
      ("1000 with a reason", closeBody(1000, "bye ✓ — à bientôt")),
      ("1000 with a reason of 123 bytes", closeBody(1000, String(repeating: "é", count: 61) + "!")),
    ] as [(String, [UInt8])])
  func aCloseAnEndpointMaySendIsAnswered(_ what: String, body: [UInt8]) async throws {
    try await Live.run { port, _ in
      try await LiveTestClient.live(port: port) { client in
        _ = try await client.message(ofType: "welcome")
        try await client.sendRaw(maskedFrame(0x88, body))
        let (_, close) = try await client.untilClosed()
        let sent = body.count >= 2 ? UInt16(body[0]) << 8 | UInt16(body[1]) : 1000
        guard case .close(let code, _) = close else {
          Issue.record("\(what): no close frame, \(close)")
          return
        }
        #expect([1000, sent].contains(code), "\(what): answered \(code)")
        #expect(try await client.frame() == nil, "\(what): the connection ends after the close frame")
      }
    }
  }

  /// What a client may send is taken: a character split between
  /// fragments (§8.1 checks the whole message; a fragment may end in part
  /// of one), a one-byte first fragment, and lengths at the edges of their
  /// forms (§5.2: 125 in 7 bits, 126 and 65,535 in 16, 65,536 in 64).
  @Test(arguments: [
    "a character split between fragments", "a four-byte character split in three fragments",
    "a one-byte first fragment", "125 bytes", "126 bytes", "65,535 bytes", "65,536 bytes",
  ])
  func aMessageAClientMaySendIsTaken(_ what: String) async throws {
    try await Live.run { port, _ in
      try await LiveTestClient.live(port: port) { client in
        _ = try await client.message(ofType: "welcome")
        let text = Array(#"{"type":"ping","note":"Zoë ✓"}"#.utf8)
        switch what {
        case "a character split between fragments":
          let split = text.firstIndex(of: 0xC3)! + 1
          try await client.sendRaw(maskedFrame(0x01, Array(text[..<split])) + maskedFrame(0x80, Array(text[split...])))
        case "a four-byte character split in three fragments":
          let emoji = Array(#"{"type":"ping","note":"😀"}"#.utf8)
          let split = emoji.firstIndex(of: 0xF0)! + 1
          try await client.sendRaw(
            maskedFrame(0x01, Array(emoji[..<split])) + maskedFrame(0x00, [emoji[split]])
              + maskedFrame(0x80, Array(emoji[(split + 1)...])))
        case "a one-byte first fragment":
          try await client.sendRaw(maskedFrame(0x01, [text[0]]) + maskedFrame(0x80, Array(text.dropFirst())))
        default:
          let size = Int(what.filter(\.isNumber))!
          // Spaces before the closing brace: JSON that stays the same message.
          let padded = Self.ping.dropLast() + Array(repeating: 0x20, count: size - Self.ping.count) + [0x7D]
          try await client.sendRaw(maskedFrame(0x81, Array(padded)))
          #expect(try await client.receive() == .text(#"{"type":"pong"}"#), "\(what)")
          return
        }
        #expect(try await client.receive() == .text(#"{"type":"pong"}"#), "\(what)")
      }
    }
  }

}

/// How a frame's payload length is written (§5.2).
enum FrameLength: Sendable {
  /// 7 bits, or 16, or 64: the shortest that holds it, as the RFC asks.
  case shortest
  /// 16 bits whatever the length.
  case sixteenBits
  /// 64 bits whatever the length.
  case sixtyFourBits
  /// 64 bits with the most significant one set, which §5.2 forbids.
  case sixtyFourBitsWithTheTopBitSet
  /// 64 bits, 2^62 more than the payload: a length allowed, and far too long.
  case sixtyFourBitsWithBit62Set
}

/// A masked frame with `first` as its first byte (FIN, RSV, opcode).
func maskedFrame(_ first: UInt8, _ payload: [UInt8], length: FrameLength = .shortest) -> [UInt8] {
  var bytes = [first]
  let count = UInt64(payload.count)
  func long(_ value: UInt64) -> [UInt8] { (0..<8).reversed().map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) } }
  switch length {
  case .shortest where count < 126: bytes.append(0x80 | UInt8(count))
  case .shortest where count < 65536, .sixteenBits:
    bytes += [0x80 | 126, UInt8(truncatingIfNeeded: count >> 8), UInt8(truncatingIfNeeded: count)]
  case .shortest, .sixtyFourBits: bytes += [0x80 | 127] + long(count)
  case .sixtyFourBitsWithTheTopBitSet: bytes += [0x80 | 127] + long(count | 1 << 63)
  case .sixtyFourBitsWithBit62Set: bytes += [0x80 | 127] + long(count | 1 << 62)
  }
  let mask: [UInt8] = [0x0A, 0xB1, 0x7C, 0x33]
  return bytes + mask + payload.enumerated().map { $1 ^ mask[$0 % 4] }
}

/// A close frame's body: the code, then the reason.
func closeBody(_ code: UInt16, _ reason: String = "") -> [UInt8] {
  [UInt8(code >> 8), UInt8(code & 0xFF)] + Array(reason.utf8)
}
