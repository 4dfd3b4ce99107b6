import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import TouchTrackerServer

/// The page names its files in its version folder, `assets/VERSION/`, kept
/// a year by browsers; the plain names still answer, revalidated each time.
@Suite struct HashedWebAssetsTests {
  static let immutable = "public, max-age=31536000, immutable"

  /// The version folder the served index.html names its files in.
  static func folder(in html: String) throws -> String {
    let match = try #require(html.firstMatch(of: #/assets/[0-9a-f]{16}//#), "no version folder in \(html.prefix(300))")
    return String(match.output)
  }

  /// A served page as `Web/` holds it: its version folder's names back to plain ones (`folder` is
  /// the page's own folder, `examples/hypnosis/`).
  static func plain(_ html: Data, folder: String = "") -> Data {
    let text = String(decoding: html, as: UTF8.self)
    guard let version = text.firstMatch(of: #/assets/[0-9a-f]{16}//#) else { return html }
    let up = String(repeating: "../", count: folder.split(separator: "/").count)
    return Data(text.replacingOccurrences(of: up + version.output + folder, with: "").utf8)
  }

  /// `Web/`'s page at `path` as the server sends it but for the version folder: the root's
  /// `index.html` with its modules in one script (`PageBundle`).
  static func bundled(_ page: Data, path: String = "index.html") throws -> Data {
    guard path == WebAssets.page else { return page }
    let made = try PageBundle.make(html: String(decoding: page, as: UTF8.self)) { file in
      try? String(contentsOf: CompressedWebAssetsTests.web.appendingPathComponent(file), encoding: .utf8)
    }
    return Data(made.html.utf8)
  }

  static func writePage(_ server: TestServer) throws {
    let html = #"<link rel="stylesheet" href="style.css"><script type="module" src="app.js"></script>"#
    try Data(html.utf8).write(to: server.webRoot.appendingPathComponent("index.html"))
  }

  @Test func theBuiltInPageNamesItsFilesInItsVersionFolderAndTheyAreKeptAYear() async throws {
    try await TestServer.run(configure: { $0.webRoot = nil }) { _, client in
      let index = try await client.execute(uri: "/", method: .get)
      #expect(index.headers[.cacheControl] == "no-cache")
      #expect(index.headers[.eTag] != nil)
      let folder = try Self.folder(in: index.text)
      // The page's modules as one script (PageBundle), in the folder too.
      #expect(index.text.contains(#"<script type="module" src="\#(folder)app.bundle.js">"#))
      #expect(!index.text.contains("modulepreload"))
      #expect(index.text.contains(#"<link rel="manifest" href="manifest.webmanifest">"#))
      for file in ["app.bundle.js", "app.js", "core/bridge.js", "style.css"] {
        let plain = try await client.execute(uri: "/\(file)", method: .get)
        try await client.execute(uri: "/\(folder)\(file)", method: .get) {
          #expect($0.status == .ok)
          #expect($0.headers[.cacheControl] == Self.immutable)
          #expect($0.text == plain.text)
        }
        #expect(plain.headers[.cacheControl] == "no-cache")
      }
    }
  }

  @Test(arguments: ["/assets/0123456789abcdef/app.js", "/assets/app.js", "/assets//app.js"])
  func anotherVersionIsNotFound(uri: String) async throws {
    try await TestServer.run(configure: { $0.webRoot = nil }) { _, client in
      try await client.execute(uri: uri, method: .get) { #expect($0.status == .notFound) }
    }
  }

  @Test func aMissingFileInTheVersionFolderIsNotFound() async throws {
    try await TestServer.run(configure: { $0.webRoot = nil }) { _, client in
      let folder = try Self.folder(in: try await client.execute(uri: "/", method: .get).text)
      try await client.execute(uri: "/\(folder)missing.js", method: .get) { #expect($0.status == .notFound) }
      try await client.execute(uri: "/\(folder)../secret.txt", method: .get) {
        #expect($0.status == .notFound || $0.status == .badRequest)
      }
    }
  }

  @Test func aChangedFileInTheWebRootGivesANewVersionAndTheOldOneIsNotFound() async throws {
    try await TestServer.run { server, client in
      try Self.writePage(server)
      let before = try Self.folder(in: try await client.execute(uri: "/", method: .get).text)
      try await client.execute(uri: "/\(before)app.js", method: .get) {
        #expect($0.status == .ok)
        #expect($0.headers[.cacheControl] == Self.immutable)
        #expect($0.text == TestServer.files["app.js"])
      }
      try Data("console.log('changed')".utf8).write(to: server.webRoot.appendingPathComponent("app.js"))
      let after = try Self.folder(in: try await client.execute(uri: "/", method: .get).text)
      #expect(after != before)
      try await client.execute(uri: "/\(before)app.js", method: .get) { #expect($0.status == .notFound) }
      try await client.execute(uri: "/\(after)app.js", method: .get) { #expect($0.text == "console.log('changed')") }
      // The plain name, for old pages and plain static servers.
      try await client.execute(uri: "/app.js", method: .get) {
        #expect($0.text == "console.log('changed')")
        #expect($0.headers[.cacheControl] == "no-cache")
      }
    }
  }

  @Test func aWebRootsModulesAreBundledAfreshAfterAnEdit() async throws {
    try await TestServer.run { server, client in
      let page = "<!doctype html>\n  <script type=\"module\" src=\"app.js\"></script>\n"
      try Data(page.utf8).write(to: server.webRoot.appendingPathComponent("index.html"))
      try Data("console.log('one');\n".utf8).write(to: server.webRoot.appendingPathComponent("app.js"))
      let first = try Self.folder(in: try await client.execute(uri: "/", method: .get).text)
      #expect(try await client.execute(uri: "/", method: .get).text.contains(#"src="\#(first)app.bundle.js""#))
      try await client.execute(uri: "/\(first)app.bundle.js", method: .get) {
        #expect($0.status == .ok)
        #expect($0.headers[.contentType] == "text/javascript; charset=utf-8")
        #expect($0.text.contains("// app.js\n{\nconsole.log('one');\n}"))
      }
      try Data("console.log('two');\n".utf8).write(to: server.webRoot.appendingPathComponent("app.js"))
      let second = try Self.folder(in: try await client.execute(uri: "/", method: .get).text)
      #expect(second != first)
      try await client.execute(uri: "/\(second)app.bundle.js", method: .get) {
        #expect($0.text.contains("console.log('two');"))
      }
      try await client.execute(uri: "/\(first)app.bundle.js", method: .get) { #expect($0.status == .notFound) }
    }
  }

  @Test func aPageInAFolderNamesTheVersionFolderFromTheRoot() {
    let html = #"<script src="hypnosis.js"></script><a href="../../index.html"></a><img src="https://x/y.png">"#
    let hashes = ["examples/hypnosis/hypnosis.js": "1", "app.js": "2"]
    let page = PageRewriter.rewrite(html, at: "examples/hypnosis/index.html", hashes: hashes, version: "v")
    #expect(
      page
        == #"<script src="../../assets/v/examples/hypnosis/hypnosis.js"></script><a href="../../index.html"></a><img src="https://x/y.png">"#
    )
  }

  @Test(arguments: [
    ("app.js", "app.js"), ("./core/bridge.js", "core/bridge.js"), ("a/../b.js", "b.js"),
  ])
  func relativeNamesResolve(value: String, path: String) {
    #expect(PageRewriter.resolve(value, in: []) == path)
  }

  @Test(arguments: ["/app.js", "https://example.com/app.js", "app.js?v=1", "#top", "../app.js", "a//b.js", ""])
  func otherNamesAreLeftAlone(value: String) {
    #expect(PageRewriter.resolve(value, in: []) == nil)
  }

  @Test func theVersionChangesWithAnyFileAndOnlyThen() {
    let hashes = ["app.js": HashedNames.hash(of: Data("a".utf8)), "style.css": HashedNames.hash(of: Data("b".utf8))]
    var changed = hashes
    changed["app.js"] = HashedNames.hash(of: Data("c".utf8))
    var added = hashes
    added["new.js"] = hashes["app.js"]
    #expect(HashedNames.version(of: hashes) == HashedNames.version(of: hashes))
    #expect(Set([hashes, changed, added].map(HashedNames.version(of:))).count == 3)
    #expect(HashedNames.version(of: hashes).count == 16)
  }
}
