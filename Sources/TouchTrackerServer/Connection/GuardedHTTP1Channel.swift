import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1

/// Hummingbird's HTTP/1 channel with a `ConnectionGuardHandler` added right
/// after NIO's request decoder, where it still sees HTTP/1 versions and
/// `Connection` headers.
struct GuardedHTTP1Channel: ServerChildChannel {
  typealias Value = HTTP1Channel.Value

  let http1: HTTP1Channel
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
      return value
    }
  }

  func handle(value: Value, logger: Logger) async {
    await http1.handle(value: value, logger: logger)
  }

  /// The server builder for `Application`.
  static func builder(timeouts: ConnectionTimeouts, waiting: WaitingConnections) -> HTTPServerBuilder {
    HTTPServerBuilder { responder in
      GuardedHTTP1Channel(http1: HTTP1Channel(responder: responder), timeouts: timeouts, waiting: waiting)
    }
  }
}
