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
    var payload = context.channel.allocator.buffer(capacity: 2 + reason.utf8.count)
    payload.write(webSocketErrorCode: .protocolError)
    payload.writeString(reason)
    let close = WebSocketFrame(fin: true, opcode: .connectionClose, data: payload)
    context.writeAndFlush(wrapOutboundOut(close)).assumeIsolated().whenComplete { _ in
      context.close(promise: nil)
    }
  }
}

/// Puts a `WebSocketFrameCheck` after NIO's frame decoder when a
/// connection is upgraded to a WebSocket, and leaves the pipeline either
/// way: at the upgrade, or at the first request that is not one.
///
/// It is added after NIO's upgrade handler when the connection opens
/// (`GuardedHTTP1Channel`): that handler tells what follows it that the
/// upgrade is complete once the frame decoder is in place and before it
/// passes on any byte it held back, so no frame is decoded unchecked.
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
      if let decoder = try? pipeline.context(handlerType: ByteToMessageHandler<WebSocketFrameDecoder>.self) {
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
