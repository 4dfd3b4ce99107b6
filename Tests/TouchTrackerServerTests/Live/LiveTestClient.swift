import Foundation
import NIOCore
import NIOPosix

/// A WebSocket client for the live tests, written out by hand (handshake,
/// masked frames, the server's frames read as they arrive) so that tests
/// can also send what a well-behaved client library would not: fragments,
/// binary frames, oversized frames, or nothing read at all.
///
/// Non-blocking (NIO): the server under test runs in the same process and
/// needs Swift's few cooperative threads. Every connection is cut after
/// `deadline`, so a test waiting for a message that never comes fails
/// instead of hanging.
final class LiveTestClient {
  /// What the server sent.
  enum Received: Equatable, CustomStringConvertible {
    case text(String)
    case close(code: UInt16, reason: String)
    /// The connection ended without a close frame.
    case end

    var description: String {
      switch self {
      case .text(let text): text
      case .close(let code, let reason): "close \(code) '\(reason)'"
      case .end: "end"
      }
    }
  }

  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  private var inbound: NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator
  private let outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>
  private var buffer = ByteBuffer()
  /// The handshake's answer: status line and headers.
  private(set) var responseHead = ""

  private init(
    inbound: NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator, outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>
  ) {
    self.inbound = inbound
    self.outbound = outbound
  }

  /// Opens `path` with a WebSocket handshake and runs `body`; `body` sees
  /// the answer's head in `responseHead` (a refused upgrade too).
  static func connect(
    port: Int, path: String, host: String? = nil, headers: [String: String] = [:],
    receiveBuffer: Int? = nil, deadline: Duration = .seconds(30), _ body: (LiveTestClient) async throws -> Void
  ) async throws {
    var bootstrap = ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
    if let receiveBuffer {
      bootstrap = bootstrap.channelOption(.socketOption(.so_rcvbuf), value: SocketOptionValue(receiveBuffer))
    }
    let channel =
      try await bootstrap
      .connect(host: "127.0.0.1", port: port) { channel in
        channel.eventLoop.makeCompletedFuture {
          try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
        }
      }
    let cut = channel.channel.eventLoop.scheduleTask(
      in: .nanoseconds(Int64(deadline.components.seconds) * 1_000_000_000)
    ) {
      channel.channel.close(promise: nil)
    }
    defer { cut.cancel() }
    try await channel.executeThenClose { inbound, outbound in
      let client = LiveTestClient(inbound: inbound.makeAsyncIterator(), outbound: outbound)
      var head = "GET \(path) HTTP/1.1\r\nHost: \(host ?? "127.0.0.1:\(port)")\r\n"
      head += "Upgrade: websocket\r\nConnection: Upgrade\r\n"
      head += "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
      for (name, value) in headers { head += "\(name): \(value)\r\n" }
      try await outbound.write(ByteBuffer(string: head + "\r\n"))
      client.responseHead = try await client.readHead()
      try await body(client)
    }
  }

  /// Connects to `/api/drawings/NAME/live`, checks the upgrade happened,
  /// and says hello (from `since`; none when nil), taking batches (frames
  /// that are JSON arrays) when `batches`.
  static func live(
    port: Int, drawing: String = "d", since: Int? = 0, client id: String = "0000000a", batches: Bool = false,
    receiveBuffer: Int? = nil, deadline: Duration = .seconds(30), _ body: (LiveTestClient) async throws -> Void
  ) async throws {
    try await connect(
      port: port, path: "/api/drawings/\(drawing)/live", receiveBuffer: receiveBuffer, deadline: deadline
    ) { client in
      guard client.responseHead.hasPrefix("HTTP/1.1 101") else {
        throw Failure(description: "Not upgraded: \(client.responseHead)")
      }
      if let since {
        let taking = batches ? #","batches":true"# : ""
        try await client.send(#"{"type":"hello","since":\#(since),"client":"\#(id)"\#(taking)}"#)
      }
      try await body(client)
    }
  }

  var isUpgraded: Bool { responseHead.hasPrefix("HTTP/1.1 101") }

  private func readHead() async throws -> String {
    while true {
      let view = buffer.readableBytesView
      if let end = view.firstRange(of: Array("\r\n\r\n".utf8)) {
        let head = String(decoding: view[view.startIndex..<end.lowerBound], as: UTF8.self)
        buffer.moveReaderIndex(forwardBy: end.upperBound - view.startIndex)
        return head
      }
      guard var more = try await inbound.next() else { return String(buffer: buffer) }
      buffer.writeBuffer(&more)
    }
  }

  // MARK: - Sending

  func send(_ text: String) async throws {
    try await sendFrame(opcode: 0x1, payload: Array(text.utf8))
  }

  /// One frame, masked as a client's must be (unless `masked` is false).
  func sendFrame(opcode: UInt8, fin: Bool = true, masked: Bool = true, payload: [UInt8]) async throws {
    var frame = ByteBuffer()
    frame.writeInteger((fin ? 0x80 : 0) | opcode)
    let maskBit: UInt8 = masked ? 0x80 : 0
    switch payload.count {
    case ..<126: frame.writeInteger(maskBit | UInt8(payload.count))
    case ..<65536:
      frame.writeInteger(UInt8(maskBit | 126))
      frame.writeInteger(UInt16(payload.count))
    default:
      frame.writeInteger(UInt8(maskBit | 127))
      frame.writeInteger(UInt64(payload.count))
    }
    guard masked else {
      frame.writeBytes(payload)
      try await outbound.write(frame)
      return
    }
    let mask: [UInt8] = [0x12, 0x34, 0x56, 0x78]
    frame.writeBytes(mask)
    frame.writeBytes(payload.enumerated().map { $1 ^ mask[$0 % 4] })
    try await outbound.write(frame)
  }

  /// Bytes as they are: a frame header no encoder writes (a length not
  /// in its shortest form, one with its most significant bit set).
  func sendRaw(_ bytes: [UInt8]) async throws {
    try await outbound.write(ByteBuffer(bytes: bytes))
  }

  // MARK: - Receiving

  /// The next frame as it came, control frames too, nothing answered; nil
  /// if the connection ended first.
  func frame() async throws -> (opcode: UInt8, payload: [UInt8])? {
    while true {
      if let frame = parseFrame() { return frame }
      guard var more = try? await inbound.next() else { return nil }
      buffer.writeBuffer(&more)
    }
  }

  /// The next message. A ping is answered with its pong, as browsers do:
  /// the server pings every 30 s and closes a socket that does not answer
  /// (on a loaded machine a test's socket can live that long; unanswered,
  /// it ended mid-test with "got end").
  func receive() async throws -> Received {
    while true {
      if let frame = parseFrame() {
        switch frame.opcode {
        case 0x1: return .text(String(decoding: frame.payload, as: UTF8.self))
        case 0x9: try await sendFrame(opcode: 0xA, payload: frame.payload)
        case 0x8:
          let code = frame.payload.count >= 2 ? UInt16(frame.payload[0]) << 8 | UInt16(frame.payload[1]) : 1005
          return .close(code: code, reason: String(decoding: frame.payload.dropFirst(2), as: UTF8.self))
        default: continue
        }
      }
      guard var more = try? await inbound.next() else { return .end }
      buffer.writeBuffer(&more)
    }
  }

  /// The next text message as a JSON object; fails on anything else.
  func message() async throws -> [String: Any] {
    let received = try await receive()
    guard case .text(let text) = received,
      let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
    else { throw Failure(description: "Expected a message, got \(received)") }
    return object
  }

  /// The messages of the next frame: one object, or the members of an
  /// array (the frames of a client that said `"batches": true`).
  func messages() async throws -> [[String: Any]] {
    let received = try await receive()
    guard case .text(let text) = received else { throw Failure(description: "Expected messages, got \(received)") }
    let value = try JSONSerialization.jsonObject(with: Data(text.utf8))
    if let object = value as? [String: Any] { return [object] }
    guard let array = value as? [[String: Any]], array.count > 1 else {
      throw Failure(description: "Expected a message or an array of several, got \(text.prefix(200))")
    }
    return array
  }

  /// Messages until one of `type`, which is returned; the others are
  /// returned in `skipped`.
  func message(ofType type: String) async throws -> (message: [String: Any], skipped: [[String: Any]]) {
    var skipped: [[String: Any]] = []
    while true {
      let message = try await message()
      if message["type"] as? String == type { return (message, skipped) }
      skipped.append(message)
    }
  }

  /// Everything until the server closes: the messages, then how it closed.
  func untilClosed() async throws -> (messages: [String], close: Received) {
    var messages: [String] = []
    while true {
      let received = try await receive()
      guard case .text(let text) = received else { return (messages, received) }
      messages.append(text)
    }
  }

  private func parseFrame() -> (opcode: UInt8, payload: [UInt8])? {
    var peek = buffer
    guard let first = peek.readInteger(as: UInt8.self), let second = peek.readInteger(as: UInt8.self) else {
      return nil
    }
    var length = Int(second & 0x7f)
    if length == 126 {
      guard let extended = peek.readInteger(as: UInt16.self) else { return nil }
      length = Int(extended)
    } else if length == 127 {
      guard let extended = peek.readInteger(as: UInt64.self) else { return nil }
      length = Int(extended)
    }
    guard let payload = peek.readBytes(length: length) else { return nil }
    buffer = peek
    return (first & 0x0f, payload)
  }
}
