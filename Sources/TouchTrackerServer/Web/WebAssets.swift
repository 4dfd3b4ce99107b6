import Foundation
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

  /// Serves the embedded files.
  init() {
    root = nil
    embedded = Self.embedded.files
    embeddedVersion = Self.embedded.version
  }

  /// The built-in files with their checksums and gzipped copies, made once a
  /// process (gzip at level 9 of the whole page takes tens of milliseconds).
  private static let embedded: (files: [String: File], version: String) = {
    var hashes: [String: String] = [:]
    for (path, bytes) in EmbeddedWebAssets.files where !path.hasSuffix(".html") {
      hashes[path] = HashedNames.hash(of: bytes)
    }
    let version = HashedNames.version(of: hashes)
    let files: [String: File] = EmbeddedWebAssets.files.reduce(into: [:]) { files, entry in
      let bytes = Self.rewritten(entry.value, path: entry.key, hashes: hashes, version: version)
      files[entry.key] = Self.file(bytes, path: entry.key)
    }
    return (files, version)
  }()

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
    return HashedNames.version(of: Self.hashes(under: root))
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
    let hashes = Self.hashes(under: root)
    let page = Self.rewritten(bytes, path: relative, hashes: hashes, version: HashedNames.version(of: hashes))
    return Self.file(page, path: relative)
  }

  /// The hash of every file a page under `root` may name, read afresh for
  /// each page: an edited module gets its new name at the next reload.
  /// Symlinks and dotfiles are left out, as `file(at:)` refuses them.
  private static func hashes(under root: String) -> [String: String] {
    let base = URL(fileURLWithPath: root)
    let keys: [URLResourceKey] = [.isRegularFileKey, .isSymbolicLinkKey]
    guard
      let enumerator = FileManager.default.enumerator(
        at: base, includingPropertiesForKeys: keys, options: [.skipsHiddenFiles])
    else { return [:] }
    var hashes: [String: String] = [:]
    for case let url as URL in enumerator {
      guard let values = try? url.resourceValues(forKeys: Set(keys)), values.isRegularFile == true,
        values.isSymbolicLink != true
      else { continue }
      let full = url.standardizedFileURL.path
      guard full.hasPrefix(root + "/"), !full.hasSuffix(".html") else { continue }
      let path = String(full.dropFirst(root.count + 1))
      guard let bytes = FileManager.default.contents(atPath: full) else { continue }
      hashes[path] = HashedNames.hash(of: bytes)
    }
    return hashes
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
