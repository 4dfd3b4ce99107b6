import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import TouchTrackerServer

/// Without `--web-root` the server serves the page's files built into it:
/// every file under the repository's `Web/` as it was at build time.
@Suite struct EmbeddedWebAssetsTests {
  static let web = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../../Web").standardizedFileURL

  /// Every regular file under `Web/`, recursively, without dotfiles.
  static var files: [String] {
    let enumerator = FileManager.default.enumerator(
      at: web, includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles])
    return (enumerator?.compactMap { $0 as? URL } ?? [])
      .filter { (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true }
      .map { String($0.standardizedFileURL.path.dropFirst(web.path.count + 1)) }
      .sorted()
  }

  @Test func everyFileUnderWebIsServedFromTheBinary() async throws {
    let files = Self.files
    #expect(files.contains("index.html") && files.contains("app.js"))
    try await TestServer.run(configure: { $0.webRoot = nil }) { _, client in
      for file in files {
        let expected = try HashedWebAssetsTests.bundled(
          Data(contentsOf: Self.web.appendingPathComponent(file)), path: file)
        try await client.execute(uri: "/\(file)", method: .get) {
          #expect($0.status == .ok, "\(file)")
          // Compared first, then expected: `#expect(served == expected)` on a mismatch has
          // Swift Testing diff the two byte collections, which for the 340 KB wasm took
          // 17 minutes (a wasm built after the binary is one such mismatch).
          // A page as written, but for the version folder the server names its files in.
          let body = Data($0.body.readableBytesView)
          let folder = String(file.dropLast("index.html".count))
          let served = file.hasSuffix(".html") ? HashedWebAssetsTests.plain(body, folder: folder) : body
          let same = served == expected
          #expect(same, "\(file): \(served.count) bytes served, \(expected.count) in Web/")
          #expect($0.headers[.contentType] == WebAssets.contentType(of: file))
        }
      }
      let index = try HashedWebAssetsTests.bundled(Data(contentsOf: Self.web.appendingPathComponent("index.html")))
      try await client.execute(uri: "/?drawing=d", method: .get) {
        // As written, but for the version folder the server names the files in.
        #expect(HashedWebAssetsTests.plain(Data($0.body.readableBytesView)) == index)
      }
    }
  }

  /// The engine's example lives in a folder of its own: its path opens its page.
  @Test func aFoldersPathServesItsIndex() async throws {
    let index = try Data(contentsOf: Self.web.appendingPathComponent("examples/hypnosis/index.html"))
    try await TestServer.run(configure: { $0.webRoot = nil }) { _, client in
      try await client.execute(uri: "/examples/hypnosis/", method: .get) {
        #expect($0.status == .ok)
        let page = HashedWebAssetsTests.plain(Data($0.body.readableBytesView), folder: "examples/hypnosis/")
        #expect(page == index)
        #expect($0.headers[.contentType] == WebAssets.contentType(of: "index.html"))
      }
      try await client.execute(uri: "/examples/nothing-here/", method: .get) { #expect($0.status == .notFound) }
    }
  }

  @Test func anUnchangedFileIsNotSentAgain() async throws {
    try await TestServer.run(configure: { $0.webRoot = nil }) { _, client in
      let first = try await client.execute(uri: "/app.js", method: .get)
      let eTag = try #require(first.headers[.eTag])
      try await client.execute(uri: "/app.js", method: .get, headers: [.ifNoneMatch: eTag]) {
        #expect($0.status == .notModified)
        #expect($0.body.readableBytes == 0)
      }
    }
  }

  @Test func aMissingWasmSaysHowToBuildIt() async throws {
    try await TestServer.run(configure: { $0.webRoot = nil }) { _, client in
      try await client.execute(uri: "/touchtracker.wasm", method: .get) {
        if FileManager.default.fileExists(atPath: Self.web.appendingPathComponent("touchtracker.wasm").path) {
          #expect($0.status == .ok)
          #expect($0.headers[.contentType] == "application/wasm")
        } else {
          #expect($0.status == .notFound)
          #expect($0.text.contains("run Scripts/build-wasm.sh, then swift build again"))
        }
      }
    }
  }
}
