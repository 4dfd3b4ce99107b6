import Foundation
import Testing
import TouchTrackerStore

/// The page checks drawing names before asking the server (`NAME_PATTERN` in
/// Web/core/bridge.js); it must accept exactly the names `DrawingName` does.
@Suite struct DrawingNamePageTests {
  static let pagePattern: NSRegularExpression? = {
    let url = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Web/core/bridge.js")
    guard let text = try? String(contentsOf: url, encoding: .utf8),
      let line = text.split(separator: "\n").first(where: { $0.hasPrefix("export const NAME_PATTERN = /") }),
      let start = line.firstIndex(of: "/"), let end = line.lastIndex(of: "/"), start < end
    else { return nil }
    return try? NSRegularExpression(pattern: String(line[line.index(after: start)..<end]))
  }()

  static let names = [
    "default", "a", "A-z_09", String(repeating: "x", count: 64), String(repeating: "x", count: 65), "", "has space",
    "dot.name", "slash/name", "ünïcode", "emoji😀", "tab\tname", "new\nline", "-", "_", "..", "%41",
  ]

  @Test(arguments: names)
  func thePageAcceptsExactlyTheNamesTheServerDoes(name: String) throws {
    let pattern = try #require(Self.pagePattern, "NAME_PATTERN not found in Web/core/bridge.js")
    let page = pattern.firstMatch(in: name, range: NSRange(name.startIndex..., in: name)) != nil
    let server = (try? DrawingName(name)) != nil
    #expect(page == server, "'\(name)': page \(page), server \(server)")
  }
}
