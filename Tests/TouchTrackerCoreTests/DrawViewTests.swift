import Testing
import TouchKitTestSupport
import TouchTrackerCore
import TouchTrackerTestSupport

@Suite struct DrawingLinesTests {
  @Test func threeFingersAtOverlappingTimesDrawThreeBlackLines() throws {
    let app = TouchTrackerApp()
    try app.send([began(1, 100, 100)], at: 0)
    try app.send([moved(1, 150, 100), began(2, 100, 200)], at: 0.02)
    try app.send([moved(2, 200, 200), began(3, 100, 300)], at: 0.04)
    #expect(app.state.linesInProgress == 3)
    try app.send([ended(1, 300, 100), moved(3, 250, 300)], at: 0.06)
    try app.send([ended(3, 400, 300)], at: 0.08)
    try app.send([ended(2, 350, 200)], at: 0.1)
    app.settle()
    #expect(
      app.drawing.lines.withoutIDs == [
        Line(begin: Point(x: 100, y: 100), end: Point(x: 300, y: 100)),
        Line(begin: Point(x: 100, y: 300), end: Point(x: 400, y: 300)),
        Line(begin: Point(x: 100, y: 200), end: Point(x: 350, y: 200)),
      ])
    #expect(app.state.linesInProgress == 0)
  }

  @Test func aLineBeingDrawnIsRedAndAFinishedLineBlack() throws {
    let app = TouchTrackerApp()
    try app.send([began(1, 100, 100)], at: 0)
    try app.send([moved(1, 200, 100)], at: 0.05)
    let live = app.renderLiveLayer().commands
    #expect(live.contains(.segment(from: Point(x: 100, y: 100), to: Point(x: 200, y: 100), color: .red, width: 10)))
    try app.send([ended(1, 200, 100)], at: 0.1)
    let finished = app.drawView.staticLayer.commands
    #expect(
      finished.contains(.segment(from: Point(x: 100, y: 100), to: Point(x: 200, y: 100), color: .black, width: 10)))
    #expect(!app.renderLiveLayer().commands.contains { if case .segment = $0 { true } else { false } })
  }

  @Test func twoFingersLandingTogetherDrawACircle() throws {
    let app = TouchTrackerApp()
    try app.send([began(1, 100, 100), began(2, 200, 160)], at: 0)
    try app.send([moved(1, 100, 100), moved(2, 220, 180)], at: 0.05)
    #expect(app.state.circlesInProgress == 1)
    try app.send([ended(1, 100, 100)], at: 0.1)
    #expect(app.drawing.circles.isEmpty, "a circle is finished only when both fingers lift")
    try app.send([ended(2, 220, 180)], at: 0.15)
    #expect(app.drawing.circles.withoutIDs == [Circle(center: Point(x: 160, y: 140), radius: 60)])
    #expect(app.drawing.lines.isEmpty)
  }

  /// (The fingers land 0.1 s apart: two that land together and move
  /// together pan the drawing, `CanvasGestureRecognizer`.)
  @Test func cancellingOneFingerRemovesOnlyItsLine() throws {
    let app = TouchTrackerApp()
    try app.send([began(1, 100, 100)], at: 0)
    try app.send([began(2, 100, 300)], at: 0.1)
    try app.send([moved(1, 300, 100), moved(2, 300, 300)], at: 0.12)
    try app.send([cancelled(1, 300, 100)], at: 0.14)
    try app.send([ended(2, 300, 300)], at: 0.16)
    #expect(app.drawing.lines.withoutIDs == [Line(begin: Point(x: 100, y: 300), end: Point(x: 300, y: 300))])
  }

  @Test func anEveryLineKeepsItsOwnStyleWhenSettingsChange() throws {
    let app = TouchTrackerApp()
    try app.drawLine(from: Point(x: 10, y: 10), to: Point(x: 100, y: 10), at: 0)
    app.drawView.options.colorMode = .fixed(.blue)
    try app.drawLine(from: Point(x: 10, y: 100), to: Point(x: 100, y: 100), at: 1)
    #expect(app.drawing.lines.map { $0.color } == [.black, .blue])
  }

  /// Hue 0 (red) points right; a quarter turn clockwise (down on screen) is yellow-green.
  @Test(arguments: [
    (Point(x: 100, y: 0), Color(rgb: 0xd90000)),
    (Point(x: 0, y: 100), Color(rgb: 0x6cd900)),
    (Point(x: -100, y: 0), Color(rgb: 0x00d9d9)),
  ])
  func colorsByAngleFollowTheLinesDirection(direction: Point, expected: Color) throws {
    let app = TouchTrackerApp(options: DrawingOptions(colorMode: .byAngle))
    try app.drawLine(from: Point(x: 200, y: 200), to: Point(x: 200, y: 200) + direction, at: 0)
    #expect(app.drawing.lines.first?.color == expected)
  }

  @Test func fasterFingersDrawThickerLinesWhenWidthsFollowSpeed() throws {
    let app = TouchTrackerApp(options: DrawingOptions(widthMode: .bySpeed))
    try app.send([began(1, 0, 100)], at: 0)
    try app.send([moved(1, 100, 100)], at: 1)
    try app.send([ended(1, 100, 100)], at: 1.01)
    try app.send([began(2, 0, 300)], at: 2)
    try app.send([moved(2, 400, 300)], at: 2.1)
    try app.send([ended(2, 400, 300)], at: 2.11)
    let widths = app.drawing.lines.map { $0.width }
    #expect(widths.count == 2)
    #expect(widths[0] < widths[1])
  }

  @Test func theEventOrderLogWritesEachResponderMessage() throws {
    let app = TouchTrackerApp()
    let log = BookLog(app)
    try app.send([began(1, 100, 100), began(2, 100, 200), began(3, 100, 300)], at: 0)
    try app.send([moved(1, 200, 100), moved(2, 200, 200), moved(3, 200, 300)], at: 0.05)
    try app.send([ended(1, 200, 100), ended(2, 200, 200), ended(3, 200, 300)], at: 0.1)
    #expect(
      log.entries == [
        "touchesBegan(_:with:) [1, 2, 3]", "touchesMoved(_:with:) [1, 2, 3]", "touchesEnded(_:with:) [1, 2, 3]",
      ])
  }

}
