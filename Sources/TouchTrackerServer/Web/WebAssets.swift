import Foundation
import NIOConcurrencyHelpers
import TouchTrackerCore
import TouchTrackerStore
import TouchTrackerWebAssets

/// The page's files, from the binary (`EmbeddedWebAssets`) or, for
/// development, from a web root on disk read on every request, so an edited
/// `app.js` or a rebuilt `touchtracker.wasm` shows on reload.
///
/// Only regular files inside the root are served: a path with an empty,
/// `.` or `..` component, a dotfile or dot-directory, a NUL or a backslash
/// is not looked up at all, and on disk no component may be a symlink, so
/// nothing links out of the root.
struct WebAssets: Sendable {
  /// A file to send.
  struct File: Sendable {
    var bytes: Data
    var contentType: String
    var eTag: String
    /// The file gzipped, for browsers that accept it; nil when that does
    /// not make it smaller (an image already compressed).
    var gzipped: Data?

    /// The gzipped copy's own tag: a cache holding one must not be told
    /// it is the other.
    var gzippedETag: String { String(eTag.dropLast()) + "-gzip\"" }
  }

  private let root: String?
  private let embedded: [String: File]
  private let embeddedVersion: String
  private let webRoot = WebRootFiles()

  /// Serves the embedded files.
  init() {
    root = nil
    embedded = Self.embedded.files
    embeddedVersion = Self.embedded.version
  }

  /// The built-in files with their checksums and gzipped copies, made once a
  /// process (gzip at level 9 of the whole page takes tens of milliseconds),
  /// the page's modules bundled (`PageBundle`).
  private static let embedded: (files: [String: File], version: String) = {
    let (files, version) = Self.served(EmbeddedWebAssets.files)
    return (files.reduce(into: [:]) { $0[$1.key] = Self.file($1.value, path: $1.key) }, version)
  }()

  /// `files` as the server sends them (the page with its modules in one
  /// script and every file named in the version's folder, the bundle beside
  /// them), and their version: the hash of every file but the HTML, the
  /// bundle included (the same modules bundled by another server are
  /// another file).
  fileprivate static func served(_ files: [String: Data]) -> (files: [String: Data], version: String) {
    var files = files
    var page: String?
    if let html = files[Self.page].flatMap({ String(data: $0, encoding: .utf8) }),
      let made = try? PageBundle.make(
        html: html,
        read: { path in
          files[path].flatMap { String(data: $0, encoding: .utf8) }
        })
    {
      page = made.html
      files[PageBundle.path] = Data(made.bundle.utf8)
    }
    var hashes: [String: String] = [:]
    for (path, bytes) in files where !path.hasSuffix(".html") {
      hashes[path] = HashedNames.hash(of: bytes)
    }
    let version = HashedNames.version(of: hashes)
    var served: [String: Data] = [:]
    for (path, bytes) in files {
      let original = path == Self.page ? page.map { Data($0.utf8) } ?? bytes : bytes
      served[path] = Self.rewritten(original, path: path, hashes: hashes, version: version)
    }
    return (served, version)
  }

  /// The page whose modules are bundled.
  static let page = "index.html"

  /// A page with its files named in the version's folder; any other file
  /// as it is.
  private static func rewritten(_ bytes: Data, path: String, hashes: [String: String], version: String) -> Data {
    guard path.hasSuffix(".html"), let html = String(data: bytes, encoding: .utf8) else { return bytes }
    return Data(PageRewriter.rewrite(html, at: path, hashes: hashes, version: version).utf8)
  }

  /// Serves files from the directory at `root`, which may itself be a symlink.
  init(root: String) {
    self.root = URL(fileURLWithPath: root).resolvingSymlinksInPath().path
    embedded = [:]
    embeddedVersion = ""
  }

  /// Whether the page can run: false when the binary was built without
  /// `touchtracker.wasm` (Scripts/build-wasm.sh had not run).
  var hasWasm: Bool { root != nil || embedded["touchtracker.wasm"] != nil }

  /// The page's version: the hash of all its files but the HTML
  /// (`HashedNames.version`), read afresh from a web root.
  var version: String {
    guard let root else { return embeddedVersion }
    return webRoot.served(under: root).version
  }

  /// The file at `path` (relative to the root, percent-decoded), or at
  /// `assets/VERSION/path` (`hashed` true) when VERSION is the page's;
  /// nil otherwise, an old version included.
  func lookup(_ path: String) -> (file: File, hashed: Bool)? {
    if let file = file(at: path) { return (file, false) }
    guard let (version, plain) = HashedNames.split(path), version == self.version, let file = file(at: plain)
    else { return nil }
    return (file, true)
  }

  /// The file at `path` (relative to the root, percent-decoded), or nil.
  func file(at path: String) -> File? {
    guard let components = Self.components(of: path) else { return nil }
    let relative = components.joined(separator: "/")
    guard let root else { return embedded[relative] }
    if relative == PageBundle.path { return bundle(under: root) }
    var current = root
    var status = stat()
    for component in components {
      current += "/" + component
      // lstat: a symlink is refused, never followed.
      guard lstat(current, &status) == 0 else { return nil }
      let type = status.st_mode & S_IFMT
      guard component == components.last ? type == S_IFREG : type == S_IFDIR else { return nil }
    }
    guard let bytes = FileManager.default.contents(atPath: current) else { return nil }
    guard relative.hasSuffix(".html") else { return Self.file(bytes, path: relative) }
    return webRoot.served(under: root).files[relative].map { Self.file($0, path: relative) }
  }

  /// The page's bundle from a web root, made from the modules there.
  private func bundle(under root: String) -> File? {
    webRoot.served(under: root).files[PageBundle.path].map { Self.file($0, path: PageBundle.path) }
  }

  /// A web root's files as served (`served`), made again only when a file
  /// there changed: every page and every file in the version folder asks
  /// for them, and reading, hashing and bundling the whole page each time
  /// took seconds of a phone-profile page load.
  final class WebRootFiles: Sendable {
    private struct Made {
      var stamps: [String: Stamp]
      var files: [String: Data]
      var version: String
    }
    /// What tells a file's content changed without reading it.
    struct Stamp: Equatable {
      var size: Int
      var seconds: Int
      var nanoseconds: Int
      var inode: UInt
    }
    private let made = NIOLockedValueBox<Made?>(nil)

    func served(under root: String) -> (files: [String: Data], version: String) {
      let paths = Self.paths(under: root)
      if let made = made.withLockedValue({ $0 }), made.stamps == paths { return (made.files, made.version) }
      var contents: [String: Data] = [:]
      for path in paths.keys {
        if let bytes = FileManager.default.contents(atPath: root + "/" + path) { contents[path] = bytes }
      }
      let (files, version) = WebAssets.served(contents)
      // The stamps from before the read: a file changed while it was read is read again next time.
      made.withLockedValue { $0 = Made(stamps: paths, files: files, version: version) }
      return (files, version)
    }

    /// Every file a page under `root` may name, with its stamp. Symlinks and
    /// dotfiles are left out, as `file(at:)` refuses them.
    private static func paths(under root: String) -> [String: Stamp] {
      let base = URL(fileURLWithPath: root)
      let keys: [URLResourceKey] = [.isRegularFileKey, .isSymbolicLinkKey]
      guard
        let enumerator = FileManager.default.enumerator(
          at: base, includingPropertiesForKeys: keys, options: [.skipsHiddenFiles])
      else { return [:] }
      var paths: [String: Stamp] = [:]
      for case let url as URL in enumerator {
        guard let values = try? url.resourceValues(forKeys: Set(keys)), values.isRegularFile == true,
          values.isSymbolicLink != true
        else { continue }
        let full = url.standardizedFileURL.path
        var status = stat()
        guard full.hasPrefix(root + "/"), lstat(full, &status) == 0 else { continue }
        paths[String(full.dropFirst(root.count + 1))] = Stamp(
          size: Int(status.st_size), seconds: Int(status.st_mtim.tv_sec), nanoseconds: Int(status.st_mtim.tv_nsec),
          inode: UInt(status.st_ino))
      }
      return paths
    }
  }

  /// The path's components, or nil if any of them may not be served.
  static func components(of path: String) -> [String]? {
    let components = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
    for component in components {
      guard !component.isEmpty, !component.hasPrefix("."), !component.contains("\0"), !component.contains("\\")
      else { return nil }
    }
    return components
  }

  private static func file(_ bytes: Data, path: String) -> File {
    let checksum = String(CRC32.checksum(bytes), radix: 16)
    let type = contentType(of: path)
    // What gzip shrinks: text, and the wasm (a third of its size); not images.
    let compressible = !type.hasPrefix("image/png") && bytes.count > 256
    let gzipped = compressible ? Gzip.compress(bytes).flatMap { $0.count < bytes.count * 9 / 10 ? $0 : nil } : nil
    return File(bytes: bytes, contentType: type, eTag: "\"\(bytes.count)-\(checksum)\"", gzipped: gzipped)
  }

  static func contentType(of path: String) -> String {
    switch path.split(separator: ".").last.map({ $0.lowercased() }) ?? "" {
    case "html": "text/html"
    case "js", "mjs": "text/javascript; charset=utf-8"
    case "css": "text/css"
    case "wasm": "application/wasm"
    case "svg": "image/svg+xml"
    case "webmanifest": "application/manifest+json"
    case "json": "application/json"
    case "png": "image/png"
    case "txt": "text/plain; charset=utf-8"
    default: "application/octet-stream"
    }
  }
}
