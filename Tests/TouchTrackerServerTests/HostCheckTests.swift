import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import TouchTrackerServer

/// DNS rebinding: a request naming another host is refused before anything
/// is read or written; a write from another site's page is refused too.
@Suite struct HostCheckTests {
  @Test(arguments: ["rebind.attacker.example", "rebind.attacker.example:8080", "127.0.0.2:8080", "0.0.0.0:8080"])
  func aForeignHostIsRefusedWith421(host: String) async throws {
    try await TestServer.run { _, client in
      for uri in ["/", "/api/drawings", "/api/drawings/d"] {
        try await client.execute(uri: uri, method: .get, headers: [.hostHeader: host]) {
          #expect($0.status == .misdirectedRequest)
          let error = try JSONDecoder().decode([String: String].self, from: Data($0.body.readableBytesView))
          #expect(error == ["error": "Host '\(host)' is not a name of this server; see --public-host"])
        }
      }
    }
  }

  @Test func aForeignHostCannotWrite() async throws {
    try await TestServer.run { _, client in
      try await client.execute(
        uri: "/api/drawings/d", method: .put, headers: [.hostHeader: "rebind.attacker.example:8080"],
        body: documentText(lines: 1).buffer
      ) { #expect($0.status == .misdirectedRequest) }
      try await client.execute(uri: "/api/drawings/d", method: .get) { #expect($0.status == .notFound) }
    }
  }

  @Test(arguments: ["127.0.0.1:8080", "localhost:8080", "[::1]:8080", "LOCALHOST", "127.0.0.1"])
  func loopbackNamesAreServed(host: String) async throws {
    try await TestServer.run { _, client in
      try await client.execute(uri: "/api/drawings", method: .get, headers: [.hostHeader: host]) {
        #expect($0.status == .ok)
      }
    }
  }

  @Test func theConfiguredPublicHostIsServed() async throws {
    try await TestServer.run(configure: { $0.publicHost = "draw.example.org" }) { _, client in
      try await client.execute(uri: "/", method: .get, headers: [.hostHeader: "draw.example.org"]) {
        #expect($0.status == .ok)
      }
      try await client.execute(uri: "/", method: .get, headers: [.hostHeader: "draw.example.org:443"]) {
        #expect($0.status == .ok)
      }
      try await client.execute(uri: "/", method: .get, headers: [.hostHeader: "other.example.org"]) {
        #expect($0.status == .misdirectedRequest)
      }
    }
  }

  @Test func aWriteFromAnotherOriginIsRefusedWith403() async throws {
    try await TestServer.run { _, client in
      for method in [HTTPRequest.Method.put, .delete] {
        try await client.execute(
          uri: "/api/drawings/d", method: method,
          headers: [.hostHeader: "127.0.0.1:8080", .origin: "http://evil.example"], body: documentText(lines: 1).buffer
        ) {
          #expect($0.status == .forbidden)
          #expect($0.text == #"{"error":"Origin 'http://evil.example' may not change drawings on this server"}"#)
        }
      }
      try await client.execute(uri: "/api/drawings/d", method: .get) { #expect($0.status == .notFound) }
    }
  }

  @Test func aWriteFromThePageItselfIsAccepted() async throws {
    try await TestServer.run { _, client in
      try await client.execute(
        uri: "/api/drawings/d", method: .put,
        headers: [.hostHeader: "localhost:8080", .origin: "http://localhost:8080"], body: documentText(lines: 1).buffer
      ) { #expect($0.status == .ok) }
    }
  }

  @Test func hostNamesAreComparedWithoutThePort() {
    let policy = HostPolicy(host: "::1", publicHost: "draw.example.org:8443")
    #expect(policy.allows(host: "[::1]:9000"))
    #expect(policy.allows(host: "draw.example.org"))
    #expect(!policy.allows(host: "draw.example.org.evil.example"))
    #expect(!policy.allows(host: "localhost:80x"))
    #expect(policy.allows(origin: "https://draw.example.org:8443", requestHost: "127.0.0.1:8080"))
    #expect(!policy.allows(origin: "https://draw.example.org", requestHost: "127.0.0.1:8080"))
    #expect(!policy.allows(origin: "null", requestHost: "[::1]:9000"))
  }

  /// Browsers treat each port as another origin: a page on another port of
  /// this machine may not write here, nor open the live socket.
  @Test func originsAreComparedWithTheirPort() {
    let policy = HostPolicy(host: "127.0.0.1", publicHost: nil)
    #expect(policy.allows(origin: "http://localhost:8080", requestHost: "localhost:8080"))
    #expect(policy.allows(origin: "http://LOCALHOST:8080", requestHost: "localhost:8080"))
    #expect(policy.allows(origin: "http://localhost", requestHost: "localhost:80"))
    #expect(!policy.allows(origin: "http://localhost:9999", requestHost: "localhost:8080"))
    #expect(!policy.allows(origin: "http://127.0.0.1:9999", requestHost: "127.0.0.1:8080"))
    #expect(!policy.allows(origin: "http://localhost:8080", requestHost: "127.0.0.1:8080"))
    #expect(policy.allows(origin: "http://127.0.0.1:9999", requestHost: nil), "no Host: the name alone")
  }

  @Test func aWriteFromAnotherPortOfThisMachineIsRefused() async throws {
    try await TestServer.run { _, client in
      try await client.execute(
        uri: "/api/drawings/d/changes", method: .post,
        headers: [.hostHeader: "localhost:8080", .origin: "http://localhost:9999", .contentType: "text/plain"],
        body: ByteBuffer(string: #"{"changes":[{"op":"clear"}]}"#)
      ) {
        #expect($0.status == .forbidden)
        #expect($0.text == #"{"error":"Origin 'http://localhost:9999' may not change drawings on this server"}"#)
      }
    }
  }
}
