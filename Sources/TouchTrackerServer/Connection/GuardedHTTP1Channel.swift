import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOHTTP1

/// Hummingbird's HTTP/1 channel, with WebSocket upgrades for the live sync
/// (`LiveUpgrade`), and a `ConnectionGuardHandler` added right after NIO's
/// request decoder, where it still sees HTTP/1 versions and `Connection`
/// headers. The guard leaves the pipeline when a connection is upgraded;
/// then a `WebSocketFrameCheck` joins it after NIO's frame decoder.
struct GuardedHTTP1Channel: ServerChildChannel {
  typealias Value = HTTP1WebSocketUpgradeChannel.Value

  let http1: HTTP1WebSocketUpgradeChannel
  let timeouts: ConnectionTimeouts
  let waiting: WaitingConnections

  func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
    let timeouts = timeouts
    let waiting = waiting
    return http1.setup(channel: channel, logger: logger).flatMapThrowing { value in
      let pipeline = channel.pipeline.syncOperations
      let decoder = try pipeline.context(handlerType: ByteToMessageHandler<HTTPRequestDecoder>.self)
      try pipeline.addHandler(
        ConnectionGuardHandler(timeouts: timeouts, waiting: waiting), position: .after(decoder.handler))
      try pipeline.addHandler(WebSocketFrameCheckInstaller())
      return value
    }
  }

  func handle(value: Value, logger: Logger) async {
    await http1.handle(value: value, logger: logger.leavingUpgradesAtDebug(on: value.channel))
  }

  /// The server builder for `Application`.
  static func builder(timeouts: ConnectionTimeouts, waiting: WaitingConnections, live: LiveUpgrade) -> HTTPServerBuilder
  {
    HTTPServerBuilder { responder in
      GuardedHTTP1Channel(
        http1: HTTP1WebSocketUpgradeChannel(
          responder: responder,
          configuration: .init(
            ws: WebSocketServerConfiguration(
              // Twice the message limit: a frame up to it is refused by
              // `LiveConnection` with a sentence, a larger one by NIO's
              // frame decoder with a bare 1009.
              maxFrameSize: 2 * live.rooms.limits.messageBytes,
              autoPing: .enabled(timePeriod: .seconds(30)),
              closeTimeout: .seconds(5),
              // A close frame's reason that is not UTF-8 is refused (1002),
              // as RFC 6455 §7.1.6 asks. Text messages are checked by
              // `LiveConnection` (1007), which reads frames, not the
              // library's messages that this setting also covers.
              validateUTF8: true
            )
          ),
          shouldUpgrade: { head, channel, logger in live.shouldUpgrade(head, channel: channel, logger: logger) }
        ),
        timeouts: timeouts,
        waiting: waiting
      )
    }
  }
}
