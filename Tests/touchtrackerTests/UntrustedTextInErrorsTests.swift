import Foundation
import Testing

/// Errors quote tokens from untrusted files. A newline or a terminal escape
/// (ESC, BEL) inside one must not break the one-line error or reach the
/// terminal: control characters come out escaped, word for word.
@Suite struct UntrustedTextInErrorsTests {
  @Test func aPhaseWithANewlineAndAnEscapeIsShownEscapedOnOneLine() async throws {
    let trace = #"{"events": [{"time": 0, "touches": [{"id": 1, "phase": "be\ngan\u001b[2J", "x": 1, "y": 2}]}]}"#
    try await expectOneLineError(
      trace: trace,
      "Unknown phase 'be\\ngan\\u001b[2J' at events[0].touches[0].phase; expected began, moved, stationary, ended or cancelled"
    )
  }

  @Test func aTapTitleWithAnOSCSequenceIsShownEscaped() async throws {
    let trace = #"{"events": [{"time": 0, "tap": "\u001b]0;owned\u0007Delete"}]}"#
    try await expectOneLineError(trace: trace, "No visible control titled '\\u001b]0;owned\\u0007Delete' at events[0]")
  }

  @Test func anActionWithACarriageReturnIsShownEscaped() async throws {
    let trace = #"{"events": [{"time": 0, "action": "undo\r\u009b"}]}"#
    try await expectOneLineError(
      trace: trace,
      "Unknown action 'undo\\r\\u009b' at events[0].action; expected one of 'undo', 'redo', 'delete', 'deselect', 'showPalette', 'hidePalette', 'cancelTouches'"
    )
  }

  @Test func aColorWithATabIsShownEscapedByRender() async throws {
    let document =
      #"{"format": "touchtracker", "version": 1, "lines": [{"begin": {"x": 0, "y": 0}, "end": {"x": 1, "y": 1}, "#
      + ##""color": "#00\t000", "width": 10}], "circles": []}"##
    let path = try Self.temporaryFile(document)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let output = path + ".svg"
    let result = try await TouchTrackerProcess.run(["render", path, "-o", output])
    #expect(result.status != 0)
    #expect(!result.crashed)
    #expect(result.stderr == "Error: \(path): Invalid color '#00\\t000' at lines[0].color; expected '#rrggbb'\n")
    #expect(!FileManager.default.fileExists(atPath: output))
  }

  @Test func aRawEscapeByteInTheJSONIsShownEscaped() async throws {
    try await expectOneLineError(
      trace: "{\"events\": [\u{1B}]}", "Invalid JSON at line 1, column 13: unexpected character '\\u001b'")
  }

  @Test func aFileNameWithANewlineIsShownEscaped() async throws {
    let path = "/nonexistent/touchtracker/a\nb.json"
    let result = try await TouchTrackerProcess.run(["replay", path])
    #expect(result.status != 0)
    #expect(
      result.stderr == "Error: Cannot read trace '/nonexistent/touchtracker/a\\nb.json': No such file or directory\n")
  }

  // MARK: Coordinates a document cannot hold

  @Test(arguments: [
    ("x", "1000000000.5", "events[1].touches[0].x"),
    ("y", "-2e9", "events[1].touches[0].y"),
  ])
  func aTouchBeyondTheDocumentLimitIsRefusedWithItsPath(axis: String, value: String, path: String) async throws {
    let x = axis == "x" ? value : "100"
    let y = axis == "y" ? value : "100"
    let trace = """
      {"events": [
        {"time": 0, "touches": [{"id": 1, "phase": "began", "x": 100, "y": 100}]},
        {"time": 0.1, "touches": [{"id": 1, "phase": "moved", "x": \(x), "y": \(y)}]},
        {"time": 0.2, "touches": [{"id": 1, "phase": "ended", "x": 100, "y": 100}]}
      ]}
      """
    try await expectOneLineError(
      trace: trace, "Coordinate out of range at \(path); expected at most 1000000000 in magnitude")
  }

  @Test func aTraceAtTheLimitReplaysToADocumentRenderAccepts() async throws {
    let trace = """
      {"events": [
        {"time": 0, "touches": [{"id": 1, "phase": "began", "x": 100, "y": 100}]},
        {"time": 0.1, "touches": [{"id": 1, "phase": "moved", "x": 1000000000, "y": -1000000000}]},
        {"time": 0.2, "touches": [{"id": 1, "phase": "ended", "x": 1000000000, "y": -1000000000}]}
      ]}
      """
    let path = try Self.temporaryFile(trace)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let replayed = try await TouchTrackerProcess.run(["replay", path])
    try #require(replayed.status == 0, "\(replayed.stderr)")
    #expect(replayed.stdout.contains(#""end":{"x":1000000000,"y":-1000000000}"#))
  }

  // MARK: Helpers

  static func temporaryFile(_ text: String) throws -> String {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("touchtracker-\(UUID().uuidString).json")
    try Data(text.utf8).write(to: url)
    return url.path
  }

  private func expectOneLineError(trace: String, _ message: String) async throws {
    let path = try Self.temporaryFile(trace)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let result = try await TouchTrackerProcess.run(["replay", path])
    #expect(result.status != 0)
    #expect(!result.crashed)
    #expect(result.stdout == "")
    #expect(result.stderr == "Error: \(path): \(message)\n")
  }
}
