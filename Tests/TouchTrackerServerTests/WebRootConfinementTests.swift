import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import TouchTrackerServer

/// The web root serves regular files inside it and nothing else.
@Suite struct WebRootConfinementTests {
  @Test(arguments: ["/index.html%00.png", "/index.html%00", "/app.js%00.html", "/%00"])
  func aNulInThePathFindsNothing(uri: String) async throws {
    try await TestServer.run { _, client in
      try await client.execute(uri: uri, method: .get) {
        #expect($0.status == .notFound)
        #expect($0.headers[.contentType] != "image/png")
        #expect($0.text != TestServer.files["index.html"])
      }
    }
  }

  @Test(arguments: ["/.env", "/.git/config", "/sub/.hidden", "/.well-known/x"])
  func dotfilesAreNotServed(uri: String) async throws {
    try await TestServer.run { server, client in
      for path in [".env", ".git/config", "sub/.hidden", ".well-known/x"] {
        let url = server.webRoot.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("secret".utf8).write(to: url)
      }
      try await client.execute(uri: uri, method: .get) {
        #expect($0.status == .notFound)
        #expect(!$0.text.contains("secret"))
      }
    }
  }

  @Test func symlinksAreNotFollowed() async throws {
    try await TestServer.run { server, client in
      let files = FileManager.default
      try files.createSymbolicLink(
        atPath: server.webRoot.appendingPathComponent("linked.txt").path,
        withDestinationPath: server.directory.appendingPathComponent("secret.txt").path)
      try files.createSymbolicLink(
        atPath: server.webRoot.appendingPathComponent("outside").path, withDestinationPath: server.directory.path)
      try files.createSymbolicLink(
        atPath: server.webRoot.appendingPathComponent("inside.js").path, withDestinationPath: "app.js")
      for uri in ["/linked.txt", "/outside/secret.txt", "/inside.js"] {
        try await client.execute(uri: uri, method: .get) {
          #expect($0.status == .notFound, "\(uri)")
          #expect(!$0.text.contains("top secret"))
        }
      }
    }
  }

  @Test func aDirectoryIsNotAFile() async throws {
    try await TestServer.run { server, client in
      try FileManager.default.createDirectory(
        at: server.webRoot.appendingPathComponent("js"), withIntermediateDirectories: true)
      try Data("export {}".utf8).write(to: server.webRoot.appendingPathComponent("js/input.js"))
      try await client.execute(uri: "/js", method: .get) { #expect($0.status == .notFound) }
      try await client.execute(uri: "/js/input.js", method: .get) {
        #expect($0.status == .ok)
        #expect($0.text == "export {}")
      }
    }
  }
}
