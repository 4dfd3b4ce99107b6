import Foundation
import Testing
import TouchTrackerCore
import TouchTrackerTestSupport

/// `touchtracker replay TRACE.json`, run as a process: what people see after
/// a recorded session, and one line on stderr for every bad trace.
@Suite struct ReplayCommandTests {
  // MARK: Drawing

  @Test func threeFingersAtOverlappingTimesDrawThreeBlackLines() async throws {
    let result = try await replay("three-fingers")
    // The whole output, as the contract spells it: lines in the order the fingers lifted.
    #expect(
      result.stdout
        == #"{"drawing":{"format":"touchtracker","version":1,"lines":["#
        + ##"{"id":1,"begin":{"x":100,"y":100},"end":{"x":300,"y":180},"color":"#000000","width":10},"##
        + ##"{"id":2,"begin":{"x":100,"y":500},"end":{"x":400,"y":580},"color":"#000000","width":10},"##
        + ##"{"id":3,"begin":{"x":100,"y":300},"end":{"x":400,"y":380},"color":"#000000","width":10}],"circles":[]},"##
        + #""state":{"selectedLine":null,"menu":[],"paletteVisible":false,"linesInProgress":0,"circlesInProgress":0}}"#
        + "\n")
    #expect(result.stderr == "")
    #expect(result.status == 0)
  }

  @Test func twoFingersLandingTogetherDrawACircle() async throws {
    let output = try await replayOutput("circle")
    #expect(output.drawing.lines.isEmpty)
    #expect(
      output.drawing.circles.withoutIDs == [
        Circle(center: Point(x: 300, y: 225), radius: 150, color: .black, width: 10)
      ])
    #expect(output.circlesInProgress == 0)
  }

  @Test func aCancelledFingerLosesOnlyItsOwnLine() async throws {
    let output = try await replayOutput("cancel")
    #expect(output.drawing.lines.withoutIDs == [Line(begin: Point(x: 100, y: 300), end: Point(x: 400, y: 300))])
    #expect(output.linesInProgress == 0)
  }

  @Test func aDoubleTapClearsLinesAndCirclesWithoutADot() async throws {
    let output = try await replayOutput("double-tap")
    #expect(output.drawing == Drawing())
    #expect(output.selectedLine == nil)
    #expect(output.menu.isEmpty)
    #expect(output.linesInProgress == 0)
  }

  /// Two fingers pinch (their average movement is zero, so the pan
  /// recognizer stays undecided and holds their ends back) while a third
  /// rests; all three lift. Every finger's line must be finished.
  @Test func fingersLiftedDuringAPinchFinishTheirLines() async throws {
    let output = try await replayOutput("pinch-beside-a-resting-finger")
    #expect(
      output.drawing.lines.withoutIDs == [
        Line(begin: Point(x: 100, y: 100), end: Point(x: 80, y: 80)),
        Line(begin: Point(x: 300, y: 300), end: Point(x: 320, y: 320)),
        Line(begin: Point(x: 500, y: 100), end: Point(x: 500, y: 100)),
      ])
    #expect(output.linesInProgress == 0)
  }

  /// The same with a circle: two fingers land together and spread evenly
  /// while a third rests; the circle is finished when both lift.
  @Test func aCircleDrawnBesideARestingFingerIsFinished() async throws {
    let output = try await replayOutput("circle-beside-a-resting-finger")
    #expect(
      output.drawing.circles.withoutIDs == [
        Circle(center: Point(x: 300, y: 200), radius: 150, color: .black, width: 10)
      ])
    #expect(output.drawing.lines.withoutIDs == [Line(begin: Point(x: 600, y: 500), end: Point(x: 600, y: 500))])
    #expect(output.circlesInProgress == 0)
    #expect(output.linesInProgress == 0)
  }

  // MARK: Selecting, deleting, undoing

  @Test func aTapFivePointsFromALineSelectsItAndShowsDelete() async throws {
    let output = try await replayOutput("select-line")
    #expect(output.drawing.lines.withoutIDs == [Line(begin: Point(x: 100, y: 100), end: Point(x: 300, y: 100))])
    #expect(output.selectedLine == 0)
    #expect(output.menu == ["Delete"])
  }

  @Test func aTapOnEmptySpaceDeselectsAndHidesTheMenu() async throws {
    let output = try await replayOutput("tap-empty-space")
    #expect(output.drawing.lines.count == 1)
    #expect(output.selectedLine == nil)
    #expect(output.menu.isEmpty)
  }

  @Test func tappingDeleteRemovesTheSelectedLine() async throws {
    let output = try await replayOutput("delete-line")
    #expect(output.drawing.lines.isEmpty)
    #expect(output.selectedLine == nil)
    #expect(output.menu.isEmpty)
  }

  @Test func undoBringsTheDeletedLineBack() async throws {
    let output = try await replayOutput("delete-then-undo")
    #expect(output.drawing.lines.withoutIDs == [Line(begin: Point(x: 100, y: 100), end: Point(x: 300, y: 100))])
    #expect(output.selectedLine == nil)
    #expect(output.menu.isEmpty)
  }

  @Test func longPressThenPanMovesTheLineWithTheFinger() async throws {
    let output = try await replayOutput("move-line")
    // The finger went from (200, 102) to (250, 152): the line moves by exactly (50, 50).
    #expect(output.drawing.lines.withoutIDs == [Line(begin: Point(x: 150, y: 150), end: Point(x: 350, y: 150))])
    #expect(output.selectedLine == nil)
    #expect(output.linesInProgress == 0)
  }

  // MARK: Palette and options

  @Test func threeFingerSwipeUpOpensThePaletteWithoutStrayLines() async throws {
    let output = try await replayOutput("palette")
    #expect(output.paletteVisible)
    #expect(output.drawing.lines.withoutIDs == [Line(begin: Point(x: 100, y: 100), end: Point(x: 300, y: 100))])
    #expect(output.linesInProgress == 0)
  }

  @Test func choosingRedColorsLaterLinesOnly() async throws {
    let result = try await replay("palette-red")
    #expect(result.status == 0)
    let output = try ReplayOutput(result.stdout)
    #expect(!output.paletteVisible)
    #expect(
      output.drawing.lines.withoutIDs == [
        Line(begin: Point(x: 100, y: 100), end: Point(x: 300, y: 100), color: .black),
        Line(begin: Point(x: 100, y: 500), end: Point(x: 300, y: 500), color: Color(rgb: 0xb0001e)),
      ])
    // The palette's red, darker than the red of a line being drawn (issue 10).
    #expect(result.stdout.contains(##""color":"#b0001e""##))
  }

  @Test func colorsByAngleColorEachLineByItsDirection() async throws {
    let black = try await replayOutput("two-directions")
    #expect(black.drawing.lines.map(\.color.hex) == ["#000000", "#000000"])
    let byAngle = try await replayOutput("two-directions", "--colors", "angle")
    // The hue wheel starts at red for lines going right; a quarter turn (down) is yellow-green.
    #expect(byAngle.drawing.lines.map(\.color.hex) == ["#d90000", "#6cd900"])
    #expect(byAngle.drawing.lines.map(\.begin) == black.drawing.lines.map(\.begin))
  }

  @Test func widthsBySpeedMakeFastLinesThickAndSlowLinesThin() async throws {
    let fixed = try await replayOutput("fast-and-slow")
    #expect(fixed.drawing.lines.map(\.width) == [10, 10])
    let bySpeed = try await replayOutput("fast-and-slow", "--widths", "speed")
    // 300 pt in 0.1 s is capped at 40 pt; 60 pt in 1 s gives 3 pt.
    #expect(bySpeed.drawing.lines.map(\.width) == [40, 3])
  }

  // MARK: Controls that go away under a finger

  /// A finger rests on "Delete" while an undo hides the menu; lifting it
  /// afterwards must neither crash nor press the vanished button.
  @Test func liftingAFingerFromAMenuThatWasHiddenIsHarmless() async throws {
    let result = try await replay("menu-held-during-undo")
    #expect(!result.crashed)
    try #require(result.status == 0, "exit \(result.status): \(result.stderr.prefix(300))")
    let output = try ReplayOutput(result.stdout)
    #expect(output.drawing.lines.isEmpty)
    #expect(output.menu.isEmpty)
    #expect(output.selectedLine == nil)
  }

  /// One finger rests on "Red" while another taps "Blue", which closes the
  /// palette; the first finger lifting later changes nothing.
  @Test func liftingAFingerFromAPaletteThatClosedIsHarmless() async throws {
    let result = try await replay("palette-held-while-another-is-chosen")
    #expect(!result.crashed)
    try #require(result.status == 0, "exit \(result.status): \(result.stderr.prefix(300))")
    let output = try ReplayOutput(result.stdout)
    #expect(!output.paletteVisible)
    #expect(output.drawing.lines.map(\.color) == [.black, .blue])
  }

  // MARK: The event-order log

  @Test func logWritesTheResponderMessagesToStderr() async throws {
    let result = try await replay("one-line", "--log")
    #expect(result.status == 0)
    // The book's lines start the line; the machinery's records are indented
    // between them. The pan sends moveLine(_:) as it begins and ends (DrawView
    // moves nothing: no line is held). It begins before the view hears of the
    // touch: the three-finger swipe holds every touch back (delaysTouchesBegan)
    // until it fails, which this first move decides after the pan began.
    #expect(
      result.stderrLines.filter { !$0.hasPrefix(" ") } == [
        "moveLine(_:) from pan: asked DrawView, DrawView performed it",
        "touchesBegan(_:with:) [1]", "touchesMoved(_:with:) [1]",
        "moveLine(_:) from pan: asked DrawView, DrawView performed it",
        "touchesEnded(_:with:) [1]",
      ])
    #expect(
      Array(result.stderrLines.prefix(2)) == [
        "  touch 1 hit DrawView (Window > DrawView)", "  touch 1 began held by double tap",
      ])
    #expect(result.stderrLines.contains("  pan: possible -> began (touches matched)"))
    #expect(result.stderrLines.contains("  double tap: possible -> failed (moved too far)"))
    #expect(result.stderrLines.contains("  touch 1 began released"))
    // The output is the same as without the log.
    #expect(result.stdout == (try await replay("one-line")).stdout)
  }

  /// `--inspect` writes the same records as `--log`, as JSON lines.
  @Test func inspectWritesTheSameRecordsAsJSONLines() async throws {
    let log = try await replay("double-tap", "--log")
    let inspect = try await replay("double-tap", "--inspect")
    #expect(inspect.status == 0)
    #expect(inspect.stdout == log.stdout)
    #expect(inspect.stderrLines.count == log.stderrLines.count)
    let records = try inspect.stderrLines.map {
      try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
    }
    #expect(records.allSatisfy { $0["t"] is Double && $0["kind"] is String })
    let failed = records.last {
      $0["kind"] as? String == "state" && $0["recognizer"] as? String == "tap" && $0["to"] as? String == "failed"
    }
    #expect(failed?["cause"] as? String == "required double tap to fail; it recognized")
    #expect(failed?["t"] as? Double == 1.25)
    let both = try await replay("double-tap", "--log", "--inspect")
    #expect(both.stderrLines.count == 2 * log.stderrLines.count)
  }

  @Test func withoutLogNothingIsWrittenToStderr() async throws {
    let result = try await replay("double-tap")
    #expect(result.status == 0)
    #expect(result.stderr == "")
  }

  /// The double tap holds its touches back (`delaysTouchesBegan`) and drops
  /// them when it recognizes (DESIGN.md): the view never hears of the two
  /// taps, so the log shows no touchesBegan/touchesCancelled for them.
  @Test func logShowsADoubleTapWithoutTheTouchesItTookOver() async throws {
    let result = try await replay("double-tap", "--log")
    #expect(result.status == 0)
    #expect(
      result.stderrLines.filter { !$0.hasPrefix(" ") } == [
        "moveLine(_:) from pan: asked DrawView, DrawView performed it",
        "touchesBegan(_:with:) [1]",
        "touchesMoved(_:with:) [1]",
        "moveLine(_:) from pan: asked DrawView, DrawView performed it",
        "touchesEnded(_:with:) [1]",
        "touchesBegan(_:with:) [2, 3]",
        "touchesMoved(_:with:) [2, 3]",
        "touchesEnded(_:with:) [2, 3]",
        "doubleTap(_:) from double tap: asked DrawView, DrawView performed it",
      ])
    let last = Array(result.stderrLines.suffix(from: result.stderrLines.firstIndex { $0.contains("touch 4 hit") } ?? 0))
    #expect(
      last.filter {
        ($0.contains("tap:") && !$0.contains("two-finger tap:")) || $0.contains("touch 5 began")
          || $0.contains("touch 4 began")
      } == [
        "  touch 4 began held by double tap",
        "  tap: waits for double tap to fail",
        "  touch 5 began held by double tap",
        "  double tap: possible -> ended (touches matched)",
        "  touch 4 began dropped",
        "  touch 5 began dropped",
        "  tap: possible -> failed (required double tap to fail; it recognized)",
        "doubleTap(_:) from double tap: asked DrawView, DrawView performed it",
        "  double tap: ended -> possible (reset)",
        "  tap: failed -> possible (reset)",
      ], "\(last)")
  }

  // MARK: Bad input: non-zero exit, one line, no crash

  @Test func anUnreadableFileIsNamed() async throws {
    let path = "/nonexistent/touchtracker/trace.json"
    try await expectOneLineError(["replay", path], "Error: Cannot read trace '\(path)': No such file or directory")
  }

  @Test func aDirectoryIsNotATrace() async throws {
    let path = FileManager.default.temporaryDirectory.path
    let result = try await TouchTrackerProcess.run(["replay", path])
    #expect(result.status != 0)
    #expect(!result.crashed)
    #expect(result.stdout == "")
    #expect(result.stderrLines.count == 1)
    #expect(result.stderr.hasPrefix("Error: Cannot read trace '\(path)': "))
  }

  @Test(arguments: [
    ("invalid-json", "Invalid JSON at line 2, column 14: expected a string key"),
    (
      "unknown-phase",
      "Unknown phase 'moving' at events[1].touches[0].phase; expected began, moved, stationary, ended or cancelled"
    ),
    ("time-goes-back", "Time went back from 0.5 to 0.25 at events[2].time"),
    ("move-before-began", "Touch 2 moved before it began at events[1].touches[0]"),
    ("nan", "Invalid JSON at line 3, column 62: non-finite number 'NaN'"),
    ("tap-missing-control", "No visible control titled 'Delete' at events[0]"),
  ])
  func aBadTraceIsOneLineNamingTheProblemAndWhere(fixture: String, message: String) async throws {
    let path = try TouchTrackerProcess.fixture(fixture)
    try await expectOneLineError(["replay", path], "Error: \(path): \(message)")
  }

  @Test func anUnknownOptionValueIsRefused() async throws {
    let result = try await TouchTrackerProcess.run([
      "replay", try TouchTrackerProcess.fixture("one-line"), "--colors", "pink",
    ])
    #expect(result.status != 0)
    #expect(!result.crashed)
    #expect(result.stdout == "")
    #expect(result.stderr.contains("pink"))
  }

  // MARK: Helpers

  private func replay(_ fixture: String, _ options: String...) async throws -> TouchTrackerProcess.Result {
    try await TouchTrackerProcess.run(["replay", try TouchTrackerProcess.fixture(fixture)] + options)
  }

  /// Replays a fixture that must succeed, and reads its output.
  private func replayOutput(_ fixture: String, _ options: String...) async throws -> ReplayOutput {
    let result = try await TouchTrackerProcess.run(["replay", try TouchTrackerProcess.fixture(fixture)] + options)
    try #require(result.status == 0, "exit \(result.status): \(result.stderr)")
    #expect(result.stderr == "")
    return try ReplayOutput(result.stdout)
  }

  private func expectOneLineError(_ arguments: [String], _ line: String) async throws {
    let result = try await TouchTrackerProcess.run(arguments)
    #expect(result.status != 0)
    #expect(!result.crashed)
    #expect(result.stdout == "")
    #expect(result.stderr == line + "\n")
  }
}

/// The replay command's stdout, read with the core's own JSON parser.
struct ReplayOutput {
  var drawing: Drawing
  var selectedLine: Int?
  var menu: [String]
  var paletteVisible: Bool
  var linesInProgress: Int
  var circlesInProgress: Int

  struct Malformed: Error, CustomStringConvertible {
    var description: String
  }

  init(_ stdout: String) throws {
    #expect(stdout.hasSuffix("}\n"), "one line of JSON")
    let value = try JSONParser.parse(String(stdout.dropLast()))
    guard let drawingValue = value["drawing"], let state = value["state"] else {
      throw Malformed(description: "no drawing or state in \(stdout)")
    }
    drawing = try DocumentCoder.decode(drawingValue)
    switch state["selectedLine"] {
    case .null?: selectedLine = nil
    case .number(let index)?: selectedLine = Int(index)
    default: throw Malformed(description: "selectedLine in \(stdout)")
    }
    guard case .array(let items)? = state["menu"], case .bool(let palette)? = state["paletteVisible"],
      case .number(let lines)? = state["linesInProgress"], case .number(let circles)? = state["circlesInProgress"]
    else { throw Malformed(description: "state in \(stdout)") }
    menu = try items.map {
      guard case .string(let title) = $0 else { throw Malformed(description: "menu in \(stdout)") }
      return title
    }
    paletteVisible = palette
    linesInProgress = Int(lines)
    circlesInProgress = Int(circles)
  }
}
