import Hummingbird
import TouchTrackerStore

/// `GET /healthz`: 200 and `{"status":"ok","version":"…","wasm":true}` when
/// the server answers and its database can be read, for a process manager
/// or a load balancer; 503 with the reason (and `Retry-After`) when the
/// database cannot be read. A database known not to answer (a call passed
/// its deadline, nothing answered since: `DrawingStorage.stall`) is said at once, without
/// asking it again; otherwise the check waits at most the database
/// deadline. `"wasm": false` says the binary was built without the page's
/// core.
struct HealthController {
  let store: any DrawingStorage
  let assets: WebAssets

  func addRoutes(to router: Router<BasicRequestContext>) {
    router.get("healthz", use: health)
    router.head("healthz") { DrawingsController.withoutBody(try await health($0, context: $1)) }
  }

  struct Health: Encodable {
    var status: String
    var version: String
    var wasm: Bool
  }

  @Sendable func health(_ request: Request, context: BasicRequestContext) async throws -> Response {
    if let stall = store.stall {
      throw APIError.unavailable("Cannot read the database '\(store.location)': \(stall)")
    }
    do {
      _ = try await store.list(DrawingListQuery(limit: 1))  // one row: the cost of a read, not of every drawing
    } catch {
      context.logger.error("Health check: cannot read the database: \(error)")
      guard case DrawingStoreError.unavailable(_, let reason) = error else {
        throw APIError.unavailable("Cannot read the database '\(store.location)'")
      }
      throw APIError.unavailable("Cannot read the database '\(store.location)': \(reason)")
    }
    return try JSONBody.response(Health(status: "ok", version: TouchTrackerVersion.current, wasm: assets.hasWasm))
  }
}
