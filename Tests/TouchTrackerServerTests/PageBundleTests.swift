import Foundation
import Testing

@testable import TouchTrackerServer

/// The page's modules go as one script (`PageBundle`): what a browser
/// evaluates, in its order, each module's own names kept to itself, what
/// they export shared, and anything else refused with the module named.
@Suite struct PageBundleTests {
  static let web = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../../Web").standardizedFileURL

  static func read(_ files: [String: String]) -> (String) -> String? { { files[$0] } }

  /// The modules in `bundle`, in the order they run (each block is named by a comment).
  static func order(of bundle: String) -> [String] {
    bundle.matches(of: #/\n// ([\w/.-]+)\n/#).map { String($0.1) }
  }

  /// The bundle of a page that loads `app.js`, from `files`.
  static func bundle(_ files: [String: String]) throws -> PageBundle.Made {
    try PageBundle.make(html: #"<script type="module" src="app.js"></script>"#, read: read(files))
  }

  static let page = """
    <head>
      <script type="module" async src="early.js"></script>
      <link rel="modulepreload" href="lib/shared.js">
      <script type="module" src="app.js"></script>
      <link rel="modulepreload" href="lib/other.js">
    </head>
    """

  @Test func thePageGetsOneScriptInPlaceOfItsModulesAndPreloads() throws {
    let files = [
      "early.js": "import { shared } from './lib/shared.js';\nshared();\n",
      "app.js": "import { shared } from './lib/shared.js';\nimport { other } from './lib/other.js';\n",
      "lib/shared.js": "export function shared() {}\n",
      "lib/other.js": "export const other = 1;\n",
    ]
    let made = try PageBundle.make(html: Self.page, read: Self.read(files))
    #expect(made.html == "<head>\n  <script type=\"module\" src=\"app.bundle.js\"></script>\n</head>")
    // The order a browser evaluates them: each one's imports first, the async script's first.
    let order = Self.order(of: made.bundle)
    #expect(order == ["lib/shared.js", "early.js", "lib/other.js", "app.js"])
  }

  @Test func importsAndReExportsRunInTheOrderTheModuleNamesThem() throws {
    let files = [
      "app.js": "export { x } from './x.js';\nimport { y } from './y.js';\nimport './z.js';\n",
      "x.js": "export const x = 1;\n",
      "y.js": "export const y = 2;\n",
      "z.js": "console.log('z');\n",
    ]
    let made = try Self.bundle(files)
    let order = Self.order(of: made.bundle)
    #expect(order == ["x.js", "y.js", "z.js", "app.js"])
  }

  /// Runs `bundle` in node (as a module) and returns what it printed; nil without node.
  static func run(_ bundle: String) throws -> String? {
    let node = ["/usr/bin/node", "/usr/local/bin/node"].first { FileManager.default.isExecutableFile(atPath: $0) }
    guard let node else { return nil }
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("bundle-\(UUID().uuidString).mjs")
    try Data(bundle.utf8).write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: node)
    process.arguments = [file.path]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self)
  }

  @Test func modulesKeepTheirOwnNamesAndShareWhatTheyExportLive() throws {
    let files = [
      "app.js": """
      import { core, start, Box, limit, reset as resetCore } from './core.js';
      import { report } from './report.js';
      const helper = 'app';
      function local() { return 'app-local'; }
      await start();
      report(core, new Box().kind, limit, helper, local(), resetCore());

      """,
      "core.js": """
      const helper = 'core';
      function local() { return 'core-local'; }
      export let core = null;
      export const limit = 3;
      export class Box { kind = local(); }
      export async function start() { core = helper; }
      export function reset() { return 'reset'; }

      """,
      "report.js": """
      function local() {}
      export function report(...values) { console.log(values.join(' ')); }
      export { local as localReport };

      """,
    ]
    // A renamed export is refused; without it, the bundle runs.
    #expect(throws: PageBundle.Problem.self) {
      try PageBundle.make(html: #"<script type="module" src="app.js"></script>"#, read: Self.read(files))
    }
    var plain = files
    plain["report.js"] = "function local() {}\nexport function report(...values) { console.log(values.join(' ')); }\n"
    let made = try Self.bundle(plain)
    guard let printed = try Self.run(made.bundle) else { return }
    // `core`, a `let` set after the module ran, is seen by its importer, as a module's binding is.
    #expect(printed == "core core-local 3 app app-local reset\n", "\(made.bundle)")
  }

  @Test func modulesThatImportEachOtherRunInABrowsersOrder() throws {
    let files = [
      "app.js": "import './ping.js';\nimport { ping } from './ping.js';\nconsole.log(ping(2));\n",
      "ping.js": """
      import { pong, seen } from './pong.js';
      export function ping(n) { return n === 0 ? 'ping' : pong(n - 1); }

      """,
      "pong.js": """
      import { ping } from './ping.js';
      export const seen = 'pong';
      export function pong(n) { return seen + '-' + ping(n); }

      """,
    ]
    let made = try Self.bundle(files)
    let order = Self.order(of: made.bundle)
    #expect(order == ["pong.js", "ping.js", "app.js"])
    guard let printed = try Self.run(made.bundle) else { return }
    #expect(printed == "pong-pong-ping\n", "\(made.bundle)")
  }

  @Test func importMetaURLStaysTheModulesOwnAddress() throws {
    let files = [
      "app.js": "import { wasm } from './core/bridge.js';\nconsole.log(wasm);\n",
      "core/bridge.js": "export const wasm = new URL('../touchtracker.wasm', import.meta.url).href;\n",
    ]
    let made = try Self.bundle(files)
    #expect(made.bundle.contains("new URL('../touchtracker.wasm', new URL('core/bridge.js', import.meta.url).href)"))
  }

  @Test(arguments: [
    ("import shared from './b.js';", "a.js: a statement the bundle cannot take: import shared from './b.js';"),
    ("import './nowhere.js';", "a.js imports 'nowhere.js', which is not in the page"),
    ("import * as b from './b.js';", "a.js: a statement the bundle cannot take: import * as b from './b.js';"),
    ("export default 1;", "a.js: a statement the bundle cannot take: export default 1;"),
    ("export * from './b.js';", "a.js: a statement the bundle cannot take: export * from './b.js';"),
    (
      "import { b } from 'https://example.com/b.js';",
      "a.js imports 'https://example.com/b.js', not a relative path in the page"
    ),
    ("import { missing } from './b.js';", "a.js imports 'missing', which b.js does not export"),
    ("import { b } from './nowhere.js';", "a.js imports 'nowhere.js', which is not in the page"),
    ("import { b } from './b.js';\nexport const b2 = import('./b.js');", "a.js: an import() the bundle cannot take"),
    ("export function b() {}", "'b' is exported by both b.js and a.js"),
    ("export const status = 1;", "a.js exports 'status', the name of a browser global"),
    ("function a() {}\nexport { a };", "a.js: 'export { a }' of its own name: export it where it is declared"),
  ])
  func whatTheBundleCannotTakeIsRefusedNamingTheModule(source: String, problem: String) throws {
    let files = [
      "a.js": source + "\n",
      "b.js": "export function b() {}\n",
      "c.js": "import { a } from './a.js';\nexport const c = 1;\n",
    ]
    let page = #"<script type="module" src="b.js"></script>"# + "\n" + #"<script type="module" src="a.js"></script>"#
    #expect(throws: PageBundle.Problem(description: problem)) {
      try PageBundle.make(html: page, read: Self.read(files))
    }
  }

  /// The page in `Web/` bundles: a module that breaks a rule above fails here, naming it.
  @Test func theBuiltInPageBundles() throws {
    let html = try String(contentsOf: Self.web.appendingPathComponent("index.html"), encoding: .utf8)
    let made = try PageBundle.make(html: html) { path in
      try? String(contentsOf: Self.web.appendingPathComponent(path), encoding: .utf8)
    }
    #expect(!made.html.contains("modulepreload"))
    #expect(made.html.contains(#"<script type="module" src="app.bundle.js"></script>"#))
    #expect(made.bundle.contains("\n// app.js\n{\n"))
    #expect(made.bundle.contains("\n// sync/download.js\n{\n"))
  }
}
