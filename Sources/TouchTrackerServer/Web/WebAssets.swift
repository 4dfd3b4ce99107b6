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

  /// Serves the embedded files.
  init() {
    root = nil
    embedded = Self.embeddedFiles
  }

  /// The built-in files with their checksums and gzipped copies, made once a
  /// process (gzip at level 9 of the whole page takes tens of milliseconds).
  private static let embeddedFiles: [String: File] = EmbeddedWebAssets.files.reduce(into: [:]) { files, entry in
    files[entry.key] = Self.file(entry.value, path: entry.key)
  }

  /// Serves files from the directory at `root`, which may itself be a symlink.
  init(root: String) {
    self.root = URL(fileURLWithPath: root).resolvingSymlinksInPath().path
    embedded = [:]
  }

  /// Whether the page can run: false when the binary was built without
  /// `touchtracker.wasm` (Scripts/build-wasm.sh had not run).
  var hasWasm: Bool { root != nil || embedded["touchtracker.wasm"] != nil }

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
    return Self.file(bytes, path: relative)
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
