/// How `PageBundle` reads the page's modules and writes them as one script.

/// One module, made ready for its block.
struct BundledModule {
  var path: String
  var body: String
  /// What it imports, in order: the module, then (name there, name here).
  var imports: [(from: String, names: [(imported: String, local: String)])]
  /// Modules it re-exports from (`export { a } from '…'`), with the names.
  var reexports: [(from: String, names: [String])]
  /// The modules it imports or re-exports from, in the order its statements name them.
  var dependencies: [String] = []
  /// Names it declares and exports, assigned to the shared declaration
  /// where they are (`const`, `let`).
  var assigned: [String]
  /// Functions it declares and exports, handed out at the block's start.
  var hoisted: [String] = []
  /// Classes it declares and exports, handed out at the block's end.
  var handedOut: [String]
  /// `let` exports: they may change after the module has run.
  var live: [String]
  /// Names it imports and exports again (`export { a }` of an import): shared already.
  var passedOn: [String] = []
}

struct Bundler {
  let read: (String) -> String?
  var modules: [String: BundledModule] = [:]
  var order: [String] = []
  var visiting: [String] = []

  init(read: @escaping (String) -> String?) { self.read = read }

  mutating func add(_ path: String, from importer: String) throws(PageBundle.Problem) {
    // Being evaluated already (a cycle): a browser goes on without it, as here.
    if modules[path] != nil || visiting.contains(path) { return }
    guard let text = read(path) else {
      throw PageBundle.Problem(description: "\(importer) imports '\(path)', which is not in the page")
    }
    visiting.append(path)
    let module = try Self.prepare(text, at: path)
    for dependency in module.dependencies {
      try add(dependency, from: path)
    }
    visiting.removeLast()
    modules[path] = module
    order.append(path)
  }

  /// Every module's exports, by name: the module that declares it.
  func exported() throws(PageBundle.Problem) -> [String: String] {
    var owners: [String: String] = [:]
    for path in order {
      let module = modules[path]!
      for name in module.assigned + module.hoisted + module.handedOut {
        if let other = owners[name] {
          throw PageBundle.Problem(description: "'\(name)' is exported by both \(other) and \(path)")
        }
        if PageBundle.globals.contains(name) {
          throw PageBundle.Problem(description: "\(path) exports '\(name)', the name of a browser global")
        }
        owners[name] = path
      }
    }
    return owners
  }

  /// The names `path` exports, its re-exports included.
  func exports(of path: String) -> Set<String> {
    let module = modules[path]!
    var names = Set(module.assigned + module.hoisted + module.handedOut + module.passedOn)
    for reexport in module.reexports { names.formUnion(reexport.names) }
    return names
  }

  func text() throws(PageBundle.Problem) -> String {
    let owners = try exported()
    var aliases: Set<String> = []
    for path in order {
      let module = modules[path]!
      for (from, names) in module.imports {
        let available = exports(of: from)
        for (imported, local) in names {
          guard available.contains(imported) else {
            throw PageBundle.Problem(description: "\(path) imports '\(imported)', which \(from) does not export")
          }
          guard imported != local else { continue }
          if owners[local] != nil || aliases.contains(local) || PageBundle.globals.contains(local) {
            throw PageBundle.Problem(description: "\(path) imports '\(imported)' as '\(local)', a name in use")
          }
          if let owner = owners[imported], modules[owner]!.live.contains(imported) {
            throw PageBundle.Problem(
              description: "\(path) imports '\(imported)' as '\(local)': a renamed 'let' would not follow its changes")
          }
          aliases.insert(local)
        }
      }
    }
    let shared = owners.keys.sorted()
    var out = "// The page's modules in one script (Sources/TouchTrackerServer/Web/PageBundle.swift).\n"
    if !shared.isEmpty { out += "let \(shared.joined(separator: ", "));\n" }
    let handedOut = order.flatMap { modules[$0]!.hoisted + modules[$0]!.handedOut }
    if !handedOut.isEmpty {
      out += "const __bundleHandOut = {\n"
      for name in handedOut { out += "  \(name): (value) => { \(name) = value; },\n" }
      out += "};\n"
    }
    for path in order {
      let module = modules[path]!
      out += "\n// \(path)\n"
      for (_, names) in module.imports {
        for (imported, local) in names where imported != local { out += "const \(local) = \(imported);\n" }
      }
      out += "{\n"
      for name in module.hoisted { out += "__bundleHandOut.\(name)(\(name));\n" }
      out += module.body
      if !module.body.hasSuffix("\n") { out += "\n" }
      for name in module.handedOut { out += "__bundleHandOut.\(name)(\(name));\n" }
      out += "}\n"
    }
    return out
  }

  /// The module `text` at `path` with its imports taken out and its exports
  /// turned into what the bundle shares.
  static func prepare(_ text: String, at path: String) throws(PageBundle.Problem) -> BundledModule {
    let folder = Array(path.split(separator: "/").dropLast().map(String.init))
    var module = BundledModule(
      path: path, body: "", imports: [], reexports: [], assigned: [], handedOut: [], live: [])
    func resolved(_ specifier: Substring) throws(PageBundle.Problem) -> String {
      guard specifier.hasPrefix("./") || specifier.hasPrefix("../"),
        let target = PageRewriter.resolve(String(specifier), in: folder)
      else {
        throw PageBundle.Problem(description: "\(path) imports '\(specifier)', not a relative path in the page")
      }
      return target
    }
    func names(_ list: Substring) -> [(String, String)] {
      list.split(separator: ",").compactMap { entry in
        let words = entry.split(whereSeparator: \.isWhitespace).map(String.init)
        switch words.count {
        case 1: return (words[0], words[0])
        case 3 where words[1] == "as": return (words[0], words[2])
        default: return nil
        }
      }
    }
    var body = ""
    var rest = Substring(text)
    // Statements at the start of a line only: the page's modules keep their top level unindented.
    let statement = #/(?m)^(?:import|export)\b[^\n]*/#
    while let match = rest.firstRange(of: statement) {
      body += rest[..<match.lowerBound]
      let line = rest[match]
      if let found = rest[match.lowerBound...].prefixMatch(
        of: #/import\s*\{([^}]*)\}\s*from\s*'([^']+)';[ \t]*/#)
      {
        let list = names(found.1)
        guard list.count == found.1.split(separator: ",").filter({ !$0.allSatisfy(\.isWhitespace) }).count else {
          throw PageBundle.Problem(description: "\(path): an import list the bundle cannot read: \(found.0)")
        }
        module.imports.append((try resolved(found.2), list.map { (imported: $0.0, local: $0.1) }))
        module.dependencies.append(module.imports.last!.from)
        rest = rest[found.range.upperBound...]
      } else if let found = rest[match.lowerBound...].prefixMatch(of: #/import\s*'([^']+)';[ \t]*/#) {
        module.imports.append((try resolved(found.1), []))
        module.dependencies.append(module.imports.last!.from)
        rest = rest[found.range.upperBound...]
      } else if let found = rest[match.lowerBound...].prefixMatch(
        of: #/export\s*\{([^}]*)\}\s*from\s*'([^']+)';[ \t]*/#)
      {
        let list = names(found.1)
        guard list.allSatisfy({ $0.0 == $0.1 }) else {
          throw PageBundle.Problem(description: "\(path): a renamed re-export: \(found.0)")
        }
        module.reexports.append((try resolved(found.2), list.map(\.0)))
        module.dependencies.append(module.reexports.last!.from)
        rest = rest[found.range.upperBound...]
      } else if let found = rest[match.lowerBound...].prefixMatch(of: #/export\s*\{([^}]*)\};[ \t]*/#) {
        let list = names(found.1)
        guard list.allSatisfy({ $0.0 == $0.1 }) else {
          throw PageBundle.Problem(description: "\(path): a renamed export: \(found.0)")
        }
        module.passedOn += list.map(\.0)
        rest = rest[found.range.upperBound...]
      } else if let found = line.prefixMatch(of: #/export\s+((?:async\s+)?function\*?|class)\s+([A-Za-z_$][\w$]*)/#) {
        if found.1 == "class" {
          module.handedOut.append(String(found.2))
        } else {
          module.hoisted.append(String(found.2))
        }
        body += line.dropFirst("export".count).drop(while: \.isWhitespace)
        rest = rest[match.upperBound...]
      } else if let found = line.prefixMatch(of: #/export\s+(const|let)\s+([A-Za-z_$][\w$]*)\s*=/#) {
        let name = String(found.2)
        module.assigned.append(name)
        if found.1 == "let" { module.live.append(name) }
        body += name + " =" + line[found.range.upperBound...]
        rest = rest[match.upperBound...]
      } else {
        throw PageBundle.Problem(description: "\(path): a statement the bundle cannot take: \(line)")
      }
    }
    body += rest
    // `export { a }` passes on an import, shared already; a name of its own is exported where it is declared.
    let imported = Set(module.imports.flatMap { $0.names.map(\.local) })
    if let own = module.passedOn.first(where: { !imported.contains($0) }) {
      throw PageBundle.Problem(
        description: "\(path): 'export { \(own) }' of its own name: export it where it is declared")
    }
    if body.contains("import(") {
      throw PageBundle.Problem(description: "\(path): an import() the bundle cannot take")
    }
    guard body.ranges(of: "import.meta").count == body.ranges(of: "import.meta.url").count else {
      throw PageBundle.Problem(description: "\(path): an import.meta the bundle cannot take")
    }
    body = body.replacing("import.meta.url", with: "new URL('\(path)', import.meta.url).href")
    module.body = body
    return module
  }
}
