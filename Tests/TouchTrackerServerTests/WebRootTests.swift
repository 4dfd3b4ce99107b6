import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import TouchTrackerServer

@Suite struct WebRootTests {
  @Test(arguments: ["/", "/?drawing=sketch", "/index.html"])
  func thePageIsIndexHTML(uri: String) async throws {
    try await TestServer.run { _, client in
      try await client.execute(uri: uri, method: .get) {
        #expect($0.status == .ok)
        #expect($0.headers[.contentType] == "text/html")
        #expect($0.text == TestServer.files["index.html"])
      }
    }
  }

  @Test(arguments: [
    ("touchtracker.wasm", "application/wasm"),
    ("app.js", "text/javascript; charset=utf-8"),
    ("style.css", "text/css"),
    ("manifest.webmanifest", "application/manifest+json"),
  ])
  func filesAreServedWithTheirContentType(file: String, contentType: String) async throws {
    try await TestServer.run { _, client in
      try await client.execute(uri: "/\(file)", method: .get) {
        #expect($0.status == .ok)
        #expect($0.headers[.contentType] == contentType)
        #expect($0.headers[.cacheControl] == "no-cache")
        #expect($0.headers[.contentLength] == String(TestServer.files[file]!.utf8.count))
        #expect($0.text == TestServer.files[file])
      }
    }
  }

  @Test func aMissingFileIs404() async throws {
    try await TestServer.run { _, client in
      try await client.execute(uri: "/missing.js", method: .get) { #expect($0.status == .notFound) }
    }
  }

  @Test(arguments: [
    "/../secret.txt", "/%2e%2e/secret.txt", "/..%2fsecret.txt", "/Web/../../secret.txt", "//../secret.txt",
  ])
  func nothingOutsideTheWebRootIsServed(uri: String) async throws {
    try await TestServer.run { _, client in
      try await client.execute(uri: uri, method: .get) {
        #expect($0.status == .badRequest || $0.status == .notFound)
        #expect(!$0.text.contains("top secret"))
      }
    }
  }

  @Test func aWebRootWithoutIndexHTMLIsAClearError() {
    let error = #expect(throws: WebRootError.self) { try WebRoot.check("/nonexistent/Web") }
    #expect(error?.description == "No index.html in web root '/nonexistent/Web'")
  }

  @Test func aCorruptDatabaseStopsTheServerFromStartingWithAClearError() async throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("touchtracker-corrupt-\(UUID()).sqlite")
      .path
    defer { try? FileManager.default.removeItem(atPath: path) }
    try Data(String(repeating: "garbage ", count: 1000).utf8).write(to: URL(fileURLWithPath: path))
    await #expect {
      _ = try await buildApplication(ServerConfiguration(databasePath: path, webRoot: "/tmp"))
    } throws: { error in
      "\(error)" == "Cannot open database '\(path)': file is not a database"
    }
  }
}
