import Foundation

/// The `--web-root` directory: the page's files on disk, for working on
/// the page without rebuilding the server.
public enum WebRoot {
  /// Whether the page's files built into this binary include the wasm core.
  public static var embeddedHasWasm: Bool { WebAssets().hasWasm }

  /// `path` if it holds an `index.html`; `--web-root` goes through this.
  public static func check(_ path: String) throws(WebRootError) -> URL {
    let url = URL(fileURLWithPath: path)
    guard hasIndex(url) else { throw .noIndex(path) }
    return url
  }

  /// Why the page cannot start from `webRoot` (nil: the files built into
  /// this binary): it has no `touchtracker.wasm`. Nil when it has one.
  public static func missingWasm(in webRoot: URL?) -> String? {
    guard let webRoot else {
      return embeddedHasWasm
        ? nil
        : "this binary was built without touchtracker.wasm, so the page cannot start;"
          + " run Scripts/build-wasm.sh, then swift build"
    }
    let wasm = webRoot.appendingPathComponent("touchtracker.wasm").path
    guard !FileManager.default.fileExists(atPath: wasm) else { return nil }
    return
      "the web root '\(webRoot.path)' has no touchtracker.wasm, so the page cannot start; run Scripts/build-wasm.sh"
  }

  private static func hasIndex(_ directory: URL) -> Bool {
    var isDirectory: ObjCBool = false
    let index = directory.appendingPathComponent("index.html").path
    return FileManager.default.fileExists(atPath: index, isDirectory: &isDirectory) && !isDirectory.boolValue
  }
}

/// Why there is no web root to serve.
public enum WebRootError: Error, Hashable, Sendable, CustomStringConvertible {
  case noIndex(String)

  public var description: String {
    switch self {
    case .noIndex(let path):
      "No index.html in web root '\(path)'"
    }
  }
}
