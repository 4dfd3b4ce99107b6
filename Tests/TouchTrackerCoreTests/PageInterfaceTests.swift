import Foundation
import Testing

@testable import TouchTrackerCore

/// The page's copies of the interface (Web/core/bridge.js) agree with the
/// core's declarations, so neither side can change a number alone.
@Suite struct PageInterfaceTests {
  /// `export const NAME = { key: 1, ... };` or `export const NAME = 8;` from bridge.js.
  static let bridge: String = {
    let url = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Web/core/bridge.js")
    return (try? String(contentsOf: url, encoding: .utf8)) ?? ""
  }()

  private func object(_ name: String) throws -> [String: Int] {
    let pattern = try NSRegularExpression(pattern: "export const \(name) = \\{([^}]*)\\};")
    let text = Self.bridge
    let match = try #require(pattern.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)))
    let body = try #require(Range(match.range(at: 1), in: text))
    var result: [String: Int] = [:]
    for pair in text[body].split(separator: ",") {
      let parts = pair.split(separator: ":").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
      guard parts.count == 2, let value = Int(parts[1]) else { continue }
      result[parts[0]] = value
    }
    return result
  }

  private func constant(_ name: String) throws -> Int {
    let pattern = try NSRegularExpression(pattern: "export const \(name) = (\\d+);")
    let text = Self.bridge
    let match = try #require(pattern.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)))
    let digits = try #require(Range(match.range(at: 1), in: text))
    return try #require(Int(text[digits]))
  }

  @Test func theBridgeIsThere() {
    #expect(Self.bridge.contains("export const PHASE"))
  }

  @Test func phaseCodesMatch() throws {
    let page = try object("PHASE")
    let core = Dictionary(uniqueKeysWithValues: TouchPhase.allCases.map { ($0.name, Int($0.rawValue)) })
    #expect(page == core)
  }

  @Test func touchTypesMatch() throws {
    let core = Dictionary(uniqueKeysWithValues: TouchType.allCases.map { ($0.name, Int($0.rawValue)) })
    #expect(try object("TOUCH_TYPE") == core)
  }

  @Test func touchStatusesMatchAndAreDistinct() throws {
    let page = try object("STATUS")
    let core = Dictionary(uniqueKeysWithValues: PageHost.TouchStatus.allCases.map { ($0.name, Int($0.rawValue)) })
    #expect(page == core)
    #expect(Set(page.values).count == page.count)
  }

  @Test func renderListLayoutMatches() throws {
    #expect(try constant("STRIDE") == PageInterface.renderStride)
    let kinds = Dictionary(uniqueKeysWithValues: PageInterface.renderKinds.map { ($0.name, $0.kind.rawValue) })
    #expect(try object("KIND") == kinds)
  }

  @Test func staticModesMatch() throws {
    let core = Dictionary(uniqueKeysWithValues: PageHost.StaticMode.allCases.map { ($0.name, Int($0.rawValue)) })
    #expect(try object("STATIC") == core)
  }

  @Test func syncEventsMatchAndAreDistinct() throws {
    let page = try object("SYNC")
    let core = Dictionary(uniqueKeysWithValues: PageHost.SyncInput.allCases.map { ($0.name, Int($0.rawValue)) })
    #expect(page == core)
    #expect(Set(page.values).count == page.count)
  }

  @Test func keyCommandsMatchAndAreDistinct() throws {
    let page = try object("KEY")
    let core = Dictionary(uniqueKeysWithValues: KeyCommand.allCases.map { ($0.name, Int($0.rawValue)) })
    #expect(page == core)
    #expect(Set(page.values).count == page.count)
  }

  @Test func probeLayoutMatches() throws {
    let core = Dictionary(uniqueKeysWithValues: PageInterface.probeLayout.enumerated().map { ($1, $0) })
    #expect(try object("PROBE") == core)
  }

  @Test func everyPhaseHasACodeBothWays() {
    for phase in TouchPhase.allCases {
      #expect(TouchPhase(rawValue: PageInterface.phaseCode(phase)) == phase)
    }
    #expect(TouchPhase(rawValue: 5) == nil)
  }
}
