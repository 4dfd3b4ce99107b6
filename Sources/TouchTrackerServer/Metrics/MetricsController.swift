import Hummingbird
import TouchTrackerStore

/// `GET /metrics`: the Prometheus text format. With access control on, only
/// the admin token opens it (`Authorization: Bearer TOKEN`).
struct MetricsController: Sendable {
  let metrics: ServerMetrics
  let rooms: LiveRooms
  let check: AccessCheck

  func addRoutes(to router: Router<BasicRequestContext>) {
    router.get("metrics", use: scrape)
  }

  @Sendable func scrape(_ request: Request, context: BasicRequestContext) async throws -> Response {
    if check.isOn {
      let access = try await check.access(to: nil, key: AccessCheck.bearerKey(request.headers[.authorization]))
      guard access == .admin else { throw APIError(.forbidden, "The metrics need the admin token") }
    }
    let text = metrics.exposition(rooms: rooms.count, clients: rooms.clientCount)
    return Response(
      status: .ok,
      headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8", .cacheControl: "no-store"],
      body: ResponseBody(byteBuffer: ByteBuffer(bytes: text)))
  }
}
