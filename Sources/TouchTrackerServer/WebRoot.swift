import Foundation

/// Finds the directory of the page's files (the repository's `Web/`), so
/// `touchtracker serve` works from anywhere in a checkout without flags.
public enum WebRoot {
  /// The first `Web` directory with an `index.html` found in any of
  /// `directories` or their ancestors, nearest first.
  public static func find(startingAt directories: [URL]) -> URL? {
    for directory in directories {
      var current = directory.standardizedFileURL
      while true {
        let candidate = current.appendingPathComponent("Web")
        if hasIndex(candidate) { return candidate }
        let parent = current.deletingLastPathComponent()
        if parent.path == current.path { break }
        current = parent
      }
    }
    return nil
  }

  /// `path` if it holds an `index.html`; `--web-root` goes through this.
  public static func check(_ path: String) throws(WebRootError) -> URL {
    let url = URL(fileURLWithPath: path)
    guard hasIndex(url) else { throw .noIndex(path) }
    return url
  }

  /// `check(path)` if a path is given, else `find` from the current directory
  /// and from the directory of the running executable.
  public static func resolve(_ path: String?) throws(WebRootError) -> URL {
    if let path { return try check(path) }
    let starts = [
      URL(fileURLWithPath: FileManager.default.currentDirectoryPath),
      Bundle.main.executableURL?.resolvingSymlinksInPath().deletingLastPathComponent(),
    ].compactMap { $0 }
    guard let found = find(startingAt: starts) else { throw .notFound(starts.map(\.path)) }
    return found
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
  /// The directories searched, with all their ancestors.
  case notFound([String])

  public var description: String {
    switch self {
    case .noIndex(let path):
      "No index.html in web root '\(path)'"
    case .notFound(let starts):
      "Cannot find Web/index.html in " + starts.map { "'\($0)'" }.joined(separator: " or ")
        + " or any directory above; pass --web-root PATH"
    }
  }
}
