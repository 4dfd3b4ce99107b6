import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import TouchTrackerServer

/// `HEAD` and `OPTIONS` on the API, and `/healthz`.
@Suite struct APIMethodsTests {
  @Test func headIsGetWithoutTheBody() async throws {
    try await TestServer.run { _, client in
      try await client.execute(uri: "/api/drawings/d", method: .put, body: documentText(lines: 2).buffer)
      for uri in ["/api/drawings/d", "/api/drawings"] {
        let get = try await client.execute(uri: uri, method: .get)
        try await client.execute(uri: uri, method: .head) {
          #expect($0.status == .ok)
          #expect($0.body.readableBytes == 0)
          #expect($0.headers[.contentLength] == String(get.body.readableBytes))
          #expect($0.headers[.contentType] == get.headers[.contentType])
          #expect($0.headers[.eTag] == get.headers[.eTag])
        }
      }
      try await client.execute(uri: "/api/drawings/missing", method: .head) { #expect($0.status == .notFound) }
    }
  }

  @Test(arguments: [
    ("/api/drawings", "GET, HEAD, OPTIONS"),
    ("/api/drawings/d", "GET, HEAD, PUT, DELETE, OPTIONS"),
  ])
  func optionsSaysWhatIsAllowed(uri: String, allow: String) async throws {
    try await TestServer.run { _, client in
      try await client.execute(uri: uri, method: .options) {
        #expect($0.status == .noContent)
        #expect($0.headers[.allow] == allow)
      }
    }
  }

  @Test func healthzAnswersWithTheVersion() async throws {
    try await TestServer.run { _, client in
      try await client.execute(uri: "/healthz", method: .get) {
        #expect($0.status == .ok)
        #expect($0.headers[.contentType] == "application/json; charset=utf-8")
        #expect($0.text == #"{"status":"ok","version":"\#(TouchTrackerVersion.current)","wasm":true}"#)
      }
    }
  }

  @Test func aDamagedDrawingIs500NamingItAndIsNeverServed() async throws {
    try await TestServer.run { server, client in
      try await client.execute(uri: "/api/drawings/d", method: .put, body: documentText(lines: 2).buffer)
      try await damage(drawing: "d", in: server.databasePath)
      try await client.execute(uri: "/api/drawings/d", method: .get) {
        #expect($0.status == .internalServerError)
        #expect(
          $0.text
            == #"{"error":"Drawing 'd' is damaged in the database (its checksum does not match); it is not served"}"#)
      }
    }
  }
}
