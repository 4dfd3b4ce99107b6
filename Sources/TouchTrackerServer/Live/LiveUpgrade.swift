import Foundation
import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOCore
import TouchTrackerStore

/// Decides which requests become live sockets: `GET /api/drawings/NAME/live`
/// with a WebSocket upgrade, a valid NAME, and the `Host` and `Origin` the
/// HTTP API accepts (`HostPolicy`). Every other upgrade is refused (NIO
/// answers 400 and closes); a `GET` of the path without an upgrade reaches
/// the router, which answers 426.
///
/// The `Origin` check matters more here than for `GET`s: browsers send
/// `Origin` on every WebSocket handshake and apply no same-origin rule to
/// sockets, so without it any site's page could draw on a local server.
struct LiveUpgrade: Sendable {
  let rooms: LiveRooms
  let policy: HostPolicy
  /// Checked on `hello` (the browser cannot set headers on a WebSocket).
  let check: AccessCheck

  typealias Handler = WebSocketDataHandler<HTTP1WebSocketUpgradeChannel.Context>

  func shouldUpgrade(_ head: HTTPRequest, channel: any Channel, logger: Logger) -> ShouldUpgradeResult<Handler> {
    guard let name = Self.drawingName(inPath: head.path ?? "") else { return .dontUpgrade }
    for host in [head.headerFields[.hostHeader], head.authority].compactMap({ $0 }) where !policy.allows(host: host) {
      logger.notice("Live socket refused: Host '\(host)' is not a name of this server")
      return .dontUpgrade
    }
    if let origin = head.headerFields[.origin],
      !policy.allows(origin: origin, requestHost: head.headerFields[.hostHeader] ?? head.authority)
    {
      logger.notice("Live socket refused: Origin '\(origin)' is another origin")
      return .dontUpgrade
    }
    let connection = LiveConnection(rooms: rooms, name: name, check: check, channel: channel)
    return .upgrade([:]) { inbound, outbound, context in
      await connection.run(inbound, outbound, logger: context.logger)
    }
  }

  /// NAME of `/api/drawings/NAME/live` (query ignored), if the path is that.
  static func drawingName(inPath path: String) -> DrawingName? {
    let path = path.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
    let parts = path.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 5, parts[0].isEmpty, parts[1] == "api", parts[2] == "drawings", parts[4] == "live" else {
      return nil
    }
    let raw = String(parts[3])
    return try? DrawingName(raw.removingPercentEncoding ?? raw)
  }
}
