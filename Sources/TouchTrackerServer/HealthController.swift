import Hummingbird
import TouchTrackerStore

/// `GET /healthz`: 200 and `{"status":"ok","version":"…","wasm":true}` when
/// the server answers and its database can be read, for a process manager
/// or a load balancer; 503 with the reason when the database cannot be read.
/// `"wasm": false` says the binary was built without the page's core.
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
    do {
      _ = try await store.list()
    } catch {
      context.logger.error("Health check: cannot read the database: \(error)")
      throw APIError(.serviceUnavailable, "Cannot read the database '\(store.location)'")
    }
    return try JSONBody.response(Health(status: "ok", version: TouchTrackerVersion.current, wasm: assets.hasWasm))
  }
}
