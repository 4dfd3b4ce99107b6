import NIOCore
import NIOHTTP1
import NIOWebSocket

/// Closes a live socket whose client sends a frame without a mask: RFC 6455
/// §5.1 says a server MUST close the connection then (1002, protocol error).
/// Also one with a reserved bit set (§5.2: "MUST be 0 unless an extension
/// is negotiated", and the live socket negotiates none): hummingbird-websocket
/// refuses them on messages but answered a ping with RSV1 set with a pong.
///
/// Why here: NIO's `WebSocketFrameDecoder` reads the mask bit but does not
/// check it, and hummingbird-websocket hands its handler frames already
/// unmasked (`WebSocketDataFrame` has no mask), with no option to refuse
/// unmasked ones. So this handler sits right after NIO's frame decoder,
/// where frames still carry their `maskKey`. Everything else of §5 (the
/// order of fragments, UTF-8, sizes, rates) is checked by `LiveConnection`,
/// which has the messages.
final class WebSocketFrameCheck: ChannelInboundHandler, RemovableChannelHandler {
  typealias InboundIn = WebSocketFrame
  typealias InboundOut = WebSocketFrame
  typealias OutboundOut = WebSocketFrame

  /// The close frame's reasons (at most 123 bytes).
  static let reason = "client frames must be masked (RFC 6455 5.1)"
  static let reservedBitsReason = "reserved bits set, no extension negotiated (RFC 6455 5.2)"

  private var failed = false

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    guard !failed else { return }
    let frame = unwrapInboundIn(data)
    let reason: String
    if frame.maskKey == nil {
      reason = Self.reason
    } else if frame.rsv1 || frame.rsv2 || frame.rsv3 {
      reason = Self.reservedBitsReason
    } else {
      context.fireChannelRead(data)
      return
    }
    failed = true
    closeForProtocolError(context, reason: reason)
  }
}

/// Closes a live socket whose client writes a frame's payload length in
/// more bytes than it needs (RFC 6455 §5.2: "the minimal number of bytes
/// MUST be used to encode the length": the 16-bit form only from 126, the
/// 64-bit form only from 65,536), or a 64-bit length with its most
/// significant bit set ("MUST be 0"): 1002, protocol error.
///
/// Why on the bytes: NIO's `WebSocketFrameDecoder` takes any length form,
/// and refuses a length with the top bit set as over its frame limit
/// (1009); the frames it makes no longer say how their length was
/// written. So this handler sits right before that decoder, reads only the
/// frames' heads (2 to 14 bytes each) and passes every byte on as it came.
final class WebSocketLengthCheck: ChannelInboundHandler, RemovableChannelHandler {
  typealias InboundIn = ByteBuffer
  typealias InboundOut = ByteBuffer
  typealias OutboundOut = WebSocketFrame

  static let longerReason = "length not in the minimal number of bytes (RFC 6455 5.2)"
  static let topBitReason = "64-bit length with its top bit set (RFC 6455 5.2)"

  /// The head of the frame being read, as far as it came.
  private var head: [UInt8] = []
  /// The bytes of the current frame's payload still to come.
  private var payloadLeft: UInt64 = 0
  private var failed = false

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    guard !failed else { return }
    let buffer = unwrapInboundIn(data)
    let bytes = buffer.readableBytesView
    var index = bytes.startIndex
    // Where the head being read began in this buffer (or before it).
    var headStart = index
    while index < bytes.endIndex {
      if payloadLeft > 0 {
        let skip = min(UInt64(bytes.endIndex - index), payloadLeft)
        index += Int(skip)
        payloadLeft -= skip
        continue
      }
      if head.isEmpty { headStart = index }
      head.append(bytes[index])
      index += 1
      guard head.count >= 2 else { continue }
      let short = head[1] & 0x7F
      let lengthBytes = short == 126 ? 2 : short == 127 ? 8 : 0
      let headBytes = 2 + lengthBytes + (head[1] & 0x80 != 0 ? 4 : 0)
      guard head.count == headBytes else { continue }
      let length = lengthBytes == 0 ? UInt64(short) : head[2..<2 + lengthBytes].reduce(0) { $0 << 8 | UInt64($1) }
      head.removeAll(keepingCapacity: true)
      let reason: String
      if lengthBytes == 8, length >> 63 != 0 {
        reason = Self.topBitReason
      } else if lengthBytes == 2 && length < 126 || lengthBytes == 8 && length < 65536 {
        reason = Self.longerReason
      } else {
        payloadLeft = length
        continue
      }
      // The frames before this one go on; this one and what follows do not.
      if headStart > bytes.startIndex {
        context.fireChannelRead(
          wrapInboundOut(buffer.getSlice(at: buffer.readerIndex, length: headStart - bytes.startIndex)!))
      }
      fail(context: context, reason: reason)
      return
    }
    context.fireChannelRead(data)
  }

  private func fail(context: ChannelHandlerContext, reason: String) {
    failed = true
    closeForProtocolError(context, reason: reason)
  }
}

/// Sends a close frame with 1002 (protocol error) and `reason` (at most
/// 123 bytes), then closes the connection: how both checks refuse a frame.
private func closeForProtocolError(_ context: ChannelHandlerContext, reason: String) {
  var payload = context.channel.allocator.buffer(capacity: 2 + reason.utf8.count)
  payload.write(webSocketErrorCode: .protocolError)
  payload.writeString(reason)
  let close = WebSocketFrame(fin: true, opcode: .connectionClose, data: payload)
  context.writeAndFlush(NIOAny(close)).assumeIsolated().whenComplete { _ in
    context.close(promise: nil)
  }
}

/// Puts a `WebSocketLengthCheck` before NIO's frame decoder and a
/// `WebSocketFrameCheck` after it when a connection is upgraded to a
/// WebSocket, and leaves the pipeline either way: at the upgrade, or at
/// the first request that is not one.
///
/// It is added after NIO's upgrade handler when the connection opens
/// (`GuardedHTTP1Channel`): that handler tells what follows it that the
/// upgrade is complete once the frame decoder is in place and before it
/// passes on any byte it held back, so no frame is decoded unchecked.
/// (NIO's upgrader adds its frame encoder before the decoder, so the
/// length check's close frame is encoded.)
final class WebSocketFrameCheckInstaller: ChannelInboundHandler, RemovableChannelHandler {
  typealias InboundIn = Any

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    // A request that is not an upgrade: no upgrade can follow it.
    context.fireChannelRead(data)
    context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
  }

  func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
    if let upgrade = event as? HTTPServerUpgradeEvents, case .upgradeComplete = upgrade {
      let pipeline = context.pipeline.syncOperations
      if let decoder = try? pipeline.context(handlerType: ByteToMessageHandler<WebSocketFrameDecoder>.self),
        (try? pipeline.context(handlerType: WebSocketFrameEncoder.self)) != nil
      {
        try? pipeline.addHandler(WebSocketLengthCheck(), position: .before(decoder.handler))
        try? pipeline.addHandler(WebSocketFrameCheck(), position: .after(decoder.handler))
      } else {
        // NIO changed how it builds the pipeline: better no socket than an unchecked one.
        context.close(promise: nil)
      }
      pipeline.removeHandler(context: context, promise: nil)
    }
    context.fireUserInboundEventTriggered(event)
  }
}
