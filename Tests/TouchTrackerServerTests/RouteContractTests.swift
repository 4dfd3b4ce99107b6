import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import TouchTrackerStore

@testable import TouchTrackerServer

/// `docs/openapi.yaml` is the HTTP API's contract: every route the router
/// has is in it, every operation in it is a route, and the server serves
/// it as it is in the repository.
@Suite struct RouteContractTests {
  static let contractURL = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../../docs/openapi.yaml").standardizedFileURL

  /// Operations answered in front of the router: the page's files
  /// (`WebAssetsMiddleware`), of which the contract names `/`.
  static let servedBeforeTheRouter: Set<String> = ["GET /", "HEAD /"]

  @Test func everyRouteIsInTheContractAndEveryOperationIsARoute() async throws {
    let routes = try await Self.routerOperations().union(Self.servedBeforeTheRouter)
    let documented = Self.documentedOperations(try String(contentsOf: Self.contractURL, encoding: .utf8))
    #expect(routes.subtracting(documented).sorted() == [], "routes missing from docs/openapi.yaml")
    #expect(documented.subtracting(routes).sorted() == [], "operations in docs/openapi.yaml that no route answers")
    #expect(routes.count > 25)
  }

  @Test func theServerServesTheContractAsItIsInTheRepository() async throws {
    let contract = try Data(contentsOf: Self.contractURL)
    try await TestServer.run { _, client in
      try await client.execute(uri: "/api/openapi.yaml", method: .get) {
        #expect($0.status == .ok)
        #expect($0.headers[.contentType] == "application/yaml")
        #expect(Data($0.body.readableBytesView) == contract)
      }
      try await client.execute(uri: "/api/openapi.yaml", method: .head) {
        #expect($0.status == .ok)
        #expect($0.body.readableBytes == 0)
        #expect($0.headers[.contentLength] == String(contract.count))
      }
    }
  }

  @Test func theOperationsAreReadFromTheDocumentsLayout() {
    let text = """
      openapi: 3.1.0
      paths:
        /a/{name}:
          parameters:
            - $ref: "#/components/parameters/Name"
          get:
            responses: {}
          options:
            responses: {}
        /b:
          post:
            responses: {}
      components:
        schemas:
          get:
            type: object
      """
    #expect(Self.documentedOperations(text) == ["GET /a/{name}", "OPTIONS /a/{name}", "POST /b"])
  }

  /// `METHOD /path` of every route; Hummingbird writes a capture `{name}`, as OpenAPI does.
  static func routerOperations() async throws -> Set<String> {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("touchtracker-route-contract-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let store = try await openDrawingStorage(directory.appendingPathComponent("drawings.sqlite").path)
    let configuration = ServerConfiguration(port: 0, databasePath: "unused")
    let routes = buildRouter(store: store, configuration: configuration).routes.map { "\($0.method) \($0.path)" }
    await store.close()
    return Set(routes)
  }

  /// `METHOD /path` of every operation under `paths:`, read by the
  /// document's layout: a path at two spaces, its methods at four.
  static func documentedOperations(_ text: String) -> Set<String> {
    let methods: Set<Substring> = ["get", "head", "put", "post", "delete", "options", "patch", "trace"]
    var operations: Set<String> = []
    var inPaths = false
    var path: Substring?
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      let indent = line.prefix { $0 == " " }.count
      let content = line.dropFirst(indent)
      if indent == 0, !content.isEmpty, !content.hasPrefix("#") {
        inPaths = content == "paths:"
        path = nil
        continue
      }
      guard inPaths, content.hasSuffix(":") else { continue }
      let key = content.dropLast()
      if indent == 2 {
        path = key.hasPrefix("/") ? key : nil
      } else if indent == 4, let path, methods.contains(key) {
        operations.insert("\(key.uppercased()) \(path)")
      }
    }
    return operations
  }
}
