import Foundation
import Hummingbird
import TouchTrackerWebAssets

/// `GET /api/openapi.yaml`: the HTTP API's contract (`docs/openapi.yaml`,
/// built into the binary), for clients and tools that generate or check
/// against it. It needs no key: it says what the routes are, nothing about
/// a drawing.
struct ContractController {
  func addRoutes(to router: Router<BasicRequestContext>) {
    router.get("api/openapi.yaml", use: contract)
    router.head("api/openapi.yaml") { DrawingsController.withoutBody(try await contract($0, context: $1)) }
  }

  @Sendable func contract(_ request: Request, context: BasicRequestContext) async throws -> Response {
    let document = EmbeddedWebAssets.openAPIDocument
    return Response(
      status: .ok,
      headers: [.contentType: "application/yaml", .cacheControl: "no-cache", .contentLength: String(document.count)],
      body: ResponseBody(byteBuffer: ByteBuffer(bytes: document)))
  }
}
