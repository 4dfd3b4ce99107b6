import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import TouchTrackerServer

@Suite struct SecurityHeadersTests {
  static let requests: [(uri: String, method: HTTPRequest.Method, status: HTTPResponse.Status)] = [
    ("/", .get, .ok),
    ("/app.js", .get, .ok),
    ("/missing.js", .get, .notFound),
    ("/api/drawings", .get, .ok),
    ("/api/drawings/nothing", .get, .notFound),
    ("/api/drawings/bad%20name", .get, .badRequest),
    ("/api/nothing", .get, .notFound),
    ("/healthz", .get, .ok),
  ]

  @Test(arguments: requests)
  func everyResponseCarriesTheSecurityHeaders(uri: String, method: HTTPRequest.Method, status: HTTPResponse.Status)
    async throws
  {
    try await TestServer.run { _, client in
      try await client.execute(uri: uri, method: method) {
        #expect($0.status == status)
        #expect($0.headers[.init("X-Content-Type-Options")!] == "nosniff")
        #expect($0.headers[.init("Referrer-Policy")!] == "no-referrer")
        #expect($0.headers[.init("X-Frame-Options")!] == "DENY")
        let policy = try #require($0.headers[.init("Content-Security-Policy")!])
        #expect(policy.contains("frame-ancestors 'none'"))
        #expect(policy.contains("script-src 'self' 'wasm-unsafe-eval'"))
      }
    }
  }

  /// The page must still work under the policy: no inline script or style,
  /// no `eval`, nothing loaded from another origin.
  @Test func thePageNeedsNothingThePolicyForbids() throws {
    let web = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Web")
      .standardizedFileURL
    let html = try String(contentsOf: web.appendingPathComponent("index.html"), encoding: .utf8)
    #expect(!html.contains("<script>"))
    #expect(!html.contains("<style"))
    #expect(!html.contains(" style=\""))
    #expect(!html.contains(" on") || html.range(of: #" on[a-z]+=""#, options: .regularExpression) == nil)
    #expect(html.range(of: #"(src|href)="(https?:)?//"#, options: .regularExpression) == nil)
  }
}
