import Foundation

/// An HTML page of `Web/` as the server sends it: every `href` and `src`
/// naming one of the page's files names it in the page's version folder
/// (`assets/VERSION/app.js`, `HashedNames`), and the modules' relative
/// imports follow. `Web/index.html` itself stays as written, so it also runs
/// from any static server with the plain names.
enum PageRewriter {
  /// `html`, the page at `htmlPath`, with the files in `hashes` (path from
  /// the root to hash) referred to in the folder of `version`.
  static func rewrite(_ html: String, at htmlPath: String, hashes: [String: String], version: String) -> String {
    let folder = Array(htmlPath.split(separator: "/").dropLast().map(String.init))
    // From the page's folder back to the root, where `assets/` is.
    let up = String(repeating: "../", count: folder.count)
    var out = ""
    var rest = Substring(html)
    // href="…" and src="…": the page's own markup, always double-quoted.
    while let match = rest.firstRange(of: #/(href|src)="([^"]*)"/#) {
      out += rest[..<match.lowerBound]
      let attribute = rest[match]
      let value = String(attribute.drop(while: { $0 != "\"" }).dropFirst().dropLast())
      // The manifest keeps its name: its start_url and scope are relative to it.
      if let target = resolve(value, in: folder), hashes[target] != nil, !target.hasSuffix(".webmanifest") {
        out += attribute.prefix(while: { $0 != "\"" }) + "\"" + up + HashedNames.folder(version) + target + "\""
      } else {
        out += attribute
      }
      rest = rest[match.upperBound...]
    }
    out += rest
    return out
  }

  /// The path from the root that `value`, written in a page in `folder`,
  /// names; nil for anything but a plain relative path (a URL, an absolute
  /// path, a query or a fragment).
  static func resolve(_ value: String, in folder: [String]) -> String? {
    guard !value.isEmpty, !value.hasPrefix("/"), !value.contains(":"), !value.contains("?"), !value.contains("#")
    else { return nil }
    var components = folder
    for component in value.split(separator: "/", omittingEmptySubsequences: false) {
      switch component {
      case ".": continue
      case "..":
        guard !components.isEmpty else { return nil }
        components.removeLast()
      case "": return nil
      default: components.append(String(component))
      }
    }
    return components.joined(separator: "/")
  }
}
