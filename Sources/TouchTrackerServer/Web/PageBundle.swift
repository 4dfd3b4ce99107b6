/// The page's modules in one script, as the server sends the page: over
/// HTTP/1.1 a browser asks for forty modules six at a time, a round trip
/// each, which on a phone's network is most of the wait for the first
/// stroke (BENCHMARKS.md, row 16); one script is one round trip. `Web/`
/// stays plain modules, so it still runs from any static server (with
/// `index.html`'s modulepreload links).
///
/// The modules go in the order a browser evaluates them (each one's imports
/// first), each module's body in a block of its own, so the names it keeps
/// to itself stay its own. What the modules export is declared once, at the
/// top of the bundle:
/// - `export const x = …` and `export let x = …` become assignments to that
///   declaration, so a `let` that changes later (`tt`, set once the wasm
///   runs) is seen by every importer, as a module's binding is;
/// - an exported function keeps its declaration in its block and is handed
///   out at the block's start (where it is declared already, as in a
///   module), an exported class at the block's end, before any importer runs.
///
/// Modules that import each other run in a browser's order too (the one met
/// first runs last); what one exports is there for the other's calls once
/// both have run, not while the first runs (a function a module exports is
/// handed out when its block starts, where a browser has it from the
/// start). `import.meta.url` stays the module's own address.
///
/// What this does not take it refuses (`Problem`), and the page is sent as
/// modules: any import but `import { a, b as c } from '…'` and `import '…'`;
/// any `export` but the forms above, `export { a }` of an import and
/// `export { a } from '…'`; two modules exporting one name; an exported name
/// that is a browser global.
enum PageBundle {
  /// The bundle's path from the root, beside `index.html`.
  static let path = "app.bundle.js"

  /// Why the page cannot be bundled, naming the module and what it has.
  struct Problem: Error, Equatable, CustomStringConvertible {
    var description: String
  }

  /// The page with one script for its modules, and that script.
  struct Made: Equatable {
    var html: String
    var bundle: String
  }

  /// `html`, a page at the root, with its module scripts and modulepreload
  /// links replaced by one script, `path`, and the script: every module the
  /// page's scripts import, at any depth. `read` gives a file's text by its
  /// path from the root, or nil.
  static func make(html: String, read: @escaping (String) -> String?) throws(Problem) -> Made {
    var entries: [String] = []
    var lines: [Substring] = []
    var placed = false
    for line in html.split(separator: "\n", omittingEmptySubsequences: false) {
      let tag = line.trimmingPrefix(while: { $0 == " " || $0 == "\t" })
      if let match = tag.wholeMatch(of: #/<script type="module"(?: async)? src="([^"]+)"></script>/#) {
        guard let entry = PageRewriter.resolve(String(match.1), in: []) else {
          throw Problem(description: "index.html: a module script at '\(match.1)', not a path in the page")
        }
        entries.append(entry)
        if !placed {
          lines.append(line.prefix(line.count - tag.count) + #"<script type="module" src="\#(path)"></script>"#)
          placed = true
        }
      } else if tag.wholeMatch(of: #/<link rel="modulepreload" href="[^"]+">/#) != nil {
        continue
      } else {
        if tag.contains("type=\"module\"") || tag.contains("modulepreload") {
          throw Problem(description: "index.html: a module script or preload not on a line of its own: \(tag)")
        }
        lines.append(line)
      }
    }
    guard !entries.isEmpty else { throw Problem(description: "index.html has no module script") }
    var bundler = Bundler(read: read)
    for entry in entries { try bundler.add(entry, from: "index.html") }
    return Made(html: lines.joined(separator: "\n"), bundle: try bundler.text())
  }

  /// Browser globals a bundle's shared names must not hide from the modules that use them.
  static let globals: Set<String> = [
    "alert", "blur", "caches", "close", "closed", "confirm", "console", "crypto", "document", "event", "fetch",
    "find", "focus", "frames", "history", "indexedDB", "length", "localStorage", "location", "name", "navigator",
    "open", "opener", "origin", "parent", "performance", "print", "prompt", "screen", "scroll", "self",
    "sessionStorage", "status", "stop", "top", "window",
  ]
}
