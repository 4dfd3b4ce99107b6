import Testing
import TouchTrackerCore
import TouchTrackerTestSupport

/// The canvas from the keyboard: a focus through the lines and circles, the
/// focused shape selected, nudged, recolored and deleted, a line drawn by
/// its two ends, and the description a screen reader reads.
@Suite struct KeyboardTests {
  /// Three lines and a circle, all black, 10 wide, in an 800 × 600 window:
  /// a horizontal line in the middle, one to its right, one above, a circle below.
  static func app() -> TouchTrackerApp {
    let app = TouchTrackerApp()
    app.drawView.load(
      Drawing(
        lines: [
          Line(begin: Point(x: 350, y: 300), end: Point(x: 450, y: 300)),
          Line(begin: Point(x: 600, y: 280), end: Point(x: 700, y: 320)),
          Line(begin: Point(x: 380, y: 100), end: Point(x: 420, y: 100)),
        ],
        circles: [Circle(center: Point(x: 400, y: 500), radius: 40, color: .blue)]))
    app.drawView.model.publishesChanges = true
    return app
  }

  /// What the focus is on: "line 1", "circle 1", or nil.
  static func focused(_ app: TouchTrackerApp) -> String? {
    let text = app.drawView.accessibilityDescription
    guard let range = text.range(of: "Focused: ") else { return nil }
    let rest = text[range.upperBound...]
    return rest.split(separator: ",").first.map { String($0.split(separator: " ").prefix(2).joined(separator: " ")) }
  }

  @Test func nextAndPreviousGoThroughTheLinesThenTheCirclesAndWrap() {
    let app = Self.app()
    var seen: [String?] = []
    for _ in 0..<5 {
      #expect(app.drawView.press(.next))
      seen.append(Self.focused(app))
    }
    #expect(seen == ["line 1", "line 2", "line 3", "circle 1", "line 1"])
    #expect(app.drawView.press(.previous))
    #expect(Self.focused(app) == "circle 1")
    #expect(app.drawView.press(.first))
    #expect(Self.focused(app) == "line 1")
    #expect(app.drawView.press(.last))
    #expect(Self.focused(app) == "circle 1")
  }

  @Test func previousWithNothingFocusedGoesToTheLastShape() {
    let app = Self.app()
    app.drawView.press(.previous)
    #expect(Self.focused(app) == "circle 1")
  }

  @Test func anEmptyDrawingHandlesNoFocusKeys() {
    let app = TouchTrackerApp()
    for command in [KeyCommand.next, .previous, .first, .last, .left, .activate, .cancel] {
      #expect(!app.drawView.press(command), "\(command.name) has nothing to do")
    }
    #expect(app.drawView.accessibilityDescription == "No lines or circles yet.")
  }

  @Test(arguments: [
    (KeyCommand.right, "line 2" as String?), (.left, nil), (.up, "line 3"), (.down, "circle 1"),
  ])
  func arrowsFocusTheNearestShapeThatWay(command: KeyCommand, expected: String?) {
    let app = Self.app()
    app.drawView.press(.first)
    app.drawView.press(command)
    #expect(Self.focused(app) == expected ?? "line 1", "nothing to the left: the focus stays")
  }

  @Test func anArrowPrefersAShapeAheadToANearerOneAside() {
    let app = TouchTrackerApp()
    app.drawView.load(
      Drawing(lines: [
        Line(begin: Point(x: 100, y: 100), end: Point(x: 110, y: 100)),
        // 60 right and 50 down: within 45° of "right", but far aside.
        Line(begin: Point(x: 160, y: 150), end: Point(x: 170, y: 150)),
        // 150 right, straight ahead.
        Line(begin: Point(x: 250, y: 100), end: Point(x: 260, y: 100)),
      ]))
    app.drawView.press(.first)
    app.drawView.press(.right)
    #expect(Self.focused(app) == "line 3")
  }

  @Test func enterSelectsTheFocusedLineAndArrowsNudgeItOneUndoableMoveAPress() throws {
    let app = Self.app()
    let id = app.drawing.lines[0].id
    app.drawView.press(.first)
    #expect(app.drawView.press(.activate))
    #expect(app.drawView.selectedLineIndex == 0)
    #expect(app.drawView.accessibilityDescription.contains("Selected: arrows move it"))
    app.drawView.press(.right)
    app.drawView.press(.fineDown)
    #expect(app.drawing.lines[0].begin == Point(x: 360, y: 301))
    #expect(app.drawing.lines[0].end == Point(x: 460, y: 301))
    #expect(app.drawView.selectedLineIndex == 0, "still selected: the next arrow moves it on")
    #expect(
      app.drawView.model.takeChanges().map(\.change) == [
        .moveLine(id, begin: Point(x: 360, y: 300), end: Point(x: 460, y: 300)),
        .moveLine(id, begin: Point(x: 360, y: 301), end: Point(x: 460, y: 301)),
      ])
    app.undo()
    #expect(app.drawing.lines[0].begin == Point(x: 360, y: 300))
    app.undo()
    #expect(app.drawing.lines[0].begin == Point(x: 350, y: 300))
  }

  @Test func aNudgeIsInPointsOnScreen() {
    let app = Self.app()
    app.drawView.setViewport(offset: .zero, zoom: 2)
    app.drawView.press(.first)
    app.drawView.press(.activate)
    app.drawView.press(.left)
    #expect(app.drawing.lines[0].begin == Point(x: 345, y: 300), "10 points on screen are 5 of the drawing at 200%")
  }

  @Test func aSelectedCircleMovesByItsCenter() {
    let app = Self.app()
    app.drawView.press(.last)
    app.drawView.press(.activate)
    #expect(app.drawView.selectedCircleIndex == 0)
    app.drawView.press(.up)
    #expect(app.drawing.circles[0].center == Point(x: 400, y: 490))
    #expect(app.drawing.circles[0].radius == 40)
  }

  @Test func enterAgainLetsGoAndEscapeIsLeftToThePage() {
    let app = Self.app()
    app.drawView.press(.first)
    app.drawView.press(.activate)
    app.drawView.press(.activate)
    #expect(app.drawView.selectedLineIndex == nil)
    #expect(!app.drawView.press(.cancel), "Escape deselects through the page's own key (tt_deselect)")
  }

  @Test func theFocusedSelectedLineIsDeletedAndRecoloredLikeATappedOne() {
    let app = Self.app()
    app.drawView.press(.next)
    app.drawView.press(.next)
    app.drawView.press(.activate)
    app.controller.showPalette()
    #expect(app.controller.chooseColor(at: 3))
    #expect(app.drawing.lines[1].color == .blue)
    #expect(Self.focused(app) == "line 2", "the focus stays on it")
    #expect(app.drawView.accessibilityDescription.contains("blue"))
    app.drawView.press(.activate)
    app.drawView.deleteSelectedLine()
    #expect(app.drawing.lines.count == 2)
    #expect(Self.focused(app) == nil, "the focused line is gone")
  }

  @Test func theFocusFollowsItsShapeWhenOthersChangeTheDrawing() {
    let app = Self.app()
    app.drawView.press(.next)
    app.drawView.press(.next)
    let first = app.drawing.lines[0].id
    app.drawView.receiveChanges([.deleteLine(first)])
    #expect(Self.focused(app) == "line 1", "the same line, now first")
    #expect(app.drawing.lines[0].begin == Point(x: 600, y: 280))
  }

  @Test func aLineIsDrawnByTwoEndsChosenWithTheArrows() throws {
    let app = Self.app()
    #expect(app.drawView.press(.drawLine))
    #expect(
      app.drawView.accessibilityDescription
        == "3 lines and 1 circle. Drawing a line: the cursor is at 400, 300;"
        + " arrows move it, Enter fixes the first end, Escape cancels.")
    app.drawView.press(.up)
    app.drawView.press(.activate)
    app.drawView.press(.activate)
    #expect(app.drawing.lines.count == 3, "an end on the first end adds nothing")
    for _ in 0..<5 { app.drawView.press(.right) }
    #expect(
      app.drawView.accessibilityDescription
        == "3 lines and 1 circle. Drawing a line from 400, 290 to 450, 290, 50 points long:"
        + " arrows move this end, Enter adds the line, Escape cancels.")
    app.drawView.press(.activate)
    #expect(app.drawing.lines.count == 4)
    let line = app.drawing.lines[3]
    #expect(line.begin == Point(x: 400, y: 290) && line.end == Point(x: 450, y: 290))
    #expect(line.color == .black && line.width == 10)
    #expect(
      app.drawView.accessibilityDescription
        == "4 lines and 1 circle. Focused: line 4 of 4, from 400, 290 to 450, 290, black, 50 points long.")
    app.undo()
    #expect(app.drawing.lines.count == 3)
  }

  @Test func escapeCancelsTheKeyboardLine() {
    let app = Self.app()
    app.drawView.press(.drawLine)
    app.drawView.press(.activate)
    app.drawView.press(.down)
    #expect(app.drawView.press(.cancel))
    #expect(!app.drawView.press(.cancel))
    #expect(app.drawing.lines.count == 3)
    #expect(app.drawView.accessibilityDescription == "3 lines and 1 circle.")
  }

  /// The white inner strokes of the focus ring and cursor: nothing else in these drawings is white.
  static func keyboardMarks(_ app: TouchTrackerApp) -> Int {
    app.renderLiveLayer().commands.filter {
      switch $0 {
      case .segment(_, _, let color, _), .circle(_, _, let color, _): color == .white
      default: false
      }
    }.count
  }

  @Test func blurHidesTheRingAndStopsTheKeyboardLineButKeepsTheFocus() {
    let app = Self.app()
    #expect(!app.drawView.press(.blur), "nothing shown: the page lets it go")
    app.drawView.press(.next)
    app.drawView.press(.next)
    #expect(Self.keyboardMarks(app) == 4, "the ring around line 2: four sides")
    #expect(app.drawView.press(.blur))
    #expect(Self.keyboardMarks(app) == 0)
    #expect(!app.drawView.press(.blur))
    app.drawView.press(.next)
    #expect(Self.focused(app) == "line 3", "the focus was kept")
    #expect(Self.keyboardMarks(app) == 4)
    app.drawView.press(.drawLine)
    #expect(Self.keyboardMarks(app) == 2, "while a line is drawn with the keys, only its cursor (two strokes)")
    #expect(app.drawView.press(.blur))
    #expect(!app.drawView.accessibilityDescription.contains("Drawing a line"))
  }

  @Test func theViewFollowsTheKeyboardCursorPastTheWindowsEdge() {
    let app = Self.app()
    app.drawView.press(.drawLine)
    #expect(app.drawView.contentOffset == .zero)
    for _ in 0..<37 { app.drawView.press(.right) }
    #expect(app.drawView.contentOffset == .zero, "the cursor at 770 is still 30 points inside")
    app.drawView.press(.right)
    #expect(app.drawView.contentOffset == Point(x: 4, y: 0), "at 780 the view moves so that it stays 24 points inside")
    for _ in 0..<10 { app.drawView.press(.right) }
    #expect(app.drawView.contentOffset == Point(x: 104, y: 0))
    #expect(app.drawView.convert(toWindow: Point(x: 880, y: 300)) == Point(x: 776, y: 300))
  }

  @Test func aShapeNudgedPastTheEdgeStaysInSightAndSelected() {
    let app = Self.app()
    app.drawView.press(.last)
    app.drawView.press(.activate)
    for _ in 0..<8 { app.drawView.press(.down) }
    #expect(app.drawing.circles[0].center == Point(x: 400, y: 580))
    #expect(app.drawView.contentOffset == Point(x: 0, y: 4))
    #expect(app.drawView.selectedCircleIndex == 0, "the next arrow moves it on")
    app.drawView.press(.down)
    #expect(app.drawing.circles[0].center == Point(x: 400, y: 590))
  }

  @Test func theDescriptionNamesTheFocusedShape() {
    let app = Self.app()
    app.drawView.press(.next)
    #expect(
      app.drawView.accessibilityDescription
        == "3 lines and 1 circle. Focused: line 1 of 3, from 350, 300 to 450, 300, black, 100 points long.")
    app.drawView.press(.last)
    #expect(
      app.drawView.accessibilityDescription
        == "3 lines and 1 circle. Focused: circle 1 of 1, centered at 400, 500, radius 40, blue.")
  }

  @Test(arguments: [(1, 0, "1 line."), (2, 0, "2 lines."), (0, 1, "1 circle."), (2, 3, "2 lines and 3 circles.")])
  func countsAreSpelledOut(lines: Int, circles: Int, text: String) {
    let app = TouchTrackerApp()
    app.drawView.load(
      Drawing(
        lines: (0..<lines).map { Line(begin: Point(x: Double($0), y: 0), end: Point(x: 50, y: 50)) },
        circles: (0..<circles).map { Circle(center: Point(x: Double($0), y: 0), radius: 5) }))
    #expect(app.drawView.accessibilityDescription == text)
  }

  @Test(arguments: [
    (0x000000 as UInt32, "black"), (0xb0001e, "red"), (0x0000ff, "blue"), (0xd9d900, "yellow"),
    (0x00d9d9, "cyan"), (0xd900d9, "magenta"), (0x808080, "gray"), (0xf0f0f0, "white"), (0x00d900, "green"),
  ])
  func colorsHaveNames(rgb: UInt32, name: String) {
    #expect(DrawView.colorName(Color(rgb: rgb)) == name)
  }

  @Test func keysAreRecordedAndReplayToTheSameDrawing() throws {
    let app = Self.app()
    let trace = Trace(
      size: Size(width: 800, height: 600),
      events: [
        TraceEvent(time: 0, input: .document(app.drawing)),
        TraceEvent(time: 1, input: .key(.first)),
        TraceEvent(time: 2, input: .key(.activate)),
        TraceEvent(time: 3, input: .key(.fineRight)),
        TraceEvent(time: 4, input: .key(.drawLine)),
        TraceEvent(time: 5, input: .key(.activate)),
        TraceEvent(time: 6, input: .key(.down)),
        TraceEvent(time: 7, input: .key(.activate)),
      ])
    let text = String(decoding: trace.encode(), as: UTF8.self)
    #expect(text.contains("{\"time\":3,\"key\":\"fineRight\"}"))
    let replayed = try Replay.run(try Trace.decode(text))
    #expect(replayed.drawing.lines.count == 4)
    #expect(replayed.drawing.lines[0].begin == Point(x: 351, y: 300))
    #expect(replayed.drawing.lines[3].begin == Point(x: 400, y: 300))
    #expect(replayed.drawing.lines[3].end == Point(x: 400, y: 310))
  }

  @Test func anUnknownKeyInATraceIsNamed() {
    let text = #"{"size":{"width":800,"height":600},"events":[{"time":0,"key":"sideways"}]}"#
    #expect(throws: FormatError.self) { try Trace.decode(text) }
    do {
      _ = try Trace.decode(text)
    } catch {
      #expect(error.message.hasPrefix("Unknown key 'sideways' at events[0].key; expected one of 'next', 'previous'"))
    }
  }
}
