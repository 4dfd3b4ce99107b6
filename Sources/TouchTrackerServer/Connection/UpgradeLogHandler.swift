import Logging
import NIOCore

/// The log of one HTTP/1 connection as `HTTP1WebSocketUpgradeChannel`
/// writes it, with one change: the error hummingbird-websocket logs when
/// a connection's WebSocket upgrade fails ("Error handling upgrade
/// result") is a debug line when the client has already gone. A client
/// that sends the upgrade request and leaves before or at the `101` (a
/// tab closed, a phone off the network) is no failure of the server, and
/// an error line per such client would bury real ones. An upgrade that
/// fails while the client is still connected stays an error.
///
/// Everything else passes through to `wrapped` unchanged, the level and
/// metadata (the request id) included.
struct UpgradeLogHandler: LogHandler {
  var wrapped: any LogHandler
  let channel: any Channel

  /// The module whose error lines are checked (swift-log's `source`).
  static let upgradeSource = "HummingbirdWebSocket"

  var logLevel: Logger.Level {
    get { wrapped.logLevel }
    set { wrapped.logLevel = newValue }
  }

  var metadata: Logger.Metadata {
    get { wrapped.metadata }
    set { wrapped.metadata = newValue }
  }

  var metadataProvider: Logger.MetadataProvider? {
    get { wrapped.metadataProvider }
    set { wrapped.metadataProvider = newValue }
  }

  subscript(metadataKey key: String) -> Logger.Metadata.Value? {
    get { wrapped[metadataKey: key] }
    set { wrapped[metadataKey: key] = newValue }
  }

  func log(event: LogEvent) {
    guard event.level == .error, event.source == Self.upgradeSource, !channel.isActive else {
      return wrapped.log(event: event)
    }
    guard wrapped.logLevel <= .debug else { return }
    var event = event
    event.level = .debug
    event.message = "A client left during the WebSocket upgrade (\(event.message))"
    wrapped.log(event: event)
  }
}

extension Logger {
  /// This logger with `UpgradeLogHandler` in front of its handler.
  func leavingUpgradesAtDebug(on channel: any Channel) -> Logger {
    var logger = self
    logger.handler = UpgradeLogHandler(wrapped: handler, channel: channel)
    return logger
  }
}
