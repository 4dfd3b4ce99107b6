import Testing
import TouchKitTestSupport
import TouchTrackerCore
import TouchTrackerTestSupport

/// What a new user trips on with the book's gestures (issue 10), fixed in the
/// core so every host gets the fix: each test failed before its fix.
@Suite struct EverydayGestureTests {
  /// Holds the line at (200, 102) with finger 1 from time 2 until the long press begins.
  private func holdTheLine(in app: TouchTrackerApp) throws {
    try app.send([began(1, 200, 102)], at: 2)
    app.advanceClock(to: 2.6)
    #expect(app.state.selectedLine == 0, "the long press holds the line")
  }

  private let original = Line(begin: Point(x: 100, y: 100), end: Point(x: 300, y: 100))

  @Test func aHeldLineStaysPutWhileAnotherFingerDrawsElsewhere() throws {
    let app = try TouchTrackerApp.withOneLine()
    try holdTheLine(in: app)
    try app.send([began(2, 100, 400)], at: 2.65)
    try app.send([moved(2, 200, 400)], at: 2.7)
    try app.send([moved(2, 300, 400)], at: 2.75)
    #expect(app.drawing.lines[0].withoutID == original, "the other finger does not drag the held line")
    #expect(app.state.linesInProgress == 1, "the other finger draws its own line")
    try app.send([ended(2, 300, 400)], at: 2.8)
    #expect(app.state.selectedLine == 0, "the other finger lifting does not let go of the held line")
    try app.send([moved(1, 230, 132)], at: 2.9)
    #expect(app.drawing.lines[0].begin == Point(x: 130, y: 130), "the held line still follows its finger")
    try app.send([ended(1, 230, 132)], at: 3)
    app.settle()
    #expect(
      app.drawing.lines.withoutIDs == [
        Line(begin: Point(x: 130, y: 130), end: Point(x: 330, y: 130)),
        Line(begin: Point(x: 100, y: 400), end: Point(x: 300, y: 400)),
      ])
  }

  @Test func aHeldLineMovesTheWholeDistanceWithASecondFingerResting() throws {
    let app = try TouchTrackerApp.withOneLine()
    try holdTheLine(in: app)
    try app.send([began(2, 500, 500)], at: 2.65)
    try app.send([moved(1, 220, 122)], at: 2.7)
    try app.send([moved(1, 260, 162)], at: 2.75)
    #expect(app.drawing.lines[0].begin == Point(x: 160, y: 160), "not half the distance")
    try app.send([ended(1, 260, 162), ended(2, 500, 500)], at: 2.8)
    app.settle()
    #expect(app.drawing.lines[0].withoutID == Line(begin: Point(x: 160, y: 160), end: Point(x: 360, y: 160)))
  }

  @Test func drawingElsewhereHidesTheMenuAndEndsTheSelection() throws {
    let app = try TouchTrackerApp.withOneLine()
    try app.tap(at: Point(x: 200, y: 105), time: 2)
    app.settle()
    #expect(app.state.menu == ["Delete"] && app.state.selectedLine == 0)
    try app.drawLine(from: Point(x: 100, y: 400), to: Point(x: 300, y: 400), at: 3)
    #expect(app.state.menu.isEmpty)
    #expect(app.state.selectedLine == nil, "no green line is left that nothing on a touch screen can act on")
    let selected = app.renderLiveLayer().commands.filter {
      if case .segment(_, _, let color, _) = $0 { color == DrawView.selectedColor } else { false }
    }
    #expect(selected.isEmpty)
  }

  @Test func tappingTheMenuKeepsTheSelectionForItsCommand() throws {
    let app = try TouchTrackerApp.withOneLine()
    try app.tap(at: Point(x: 200, y: 105), time: 2)
    app.settle()
    try app.tap(title: "Delete", at: 3)
    #expect(app.drawing.lines.isEmpty, "a touch on the menu does not deselect before Delete acts")
  }

  @Test func withWidthsBySpeedTheLineInProgressShowsItsWidthAsItIsDrawn() throws {
    let app = TouchTrackerApp()
    app.drawView.options.widthMode = .bySpeed
    try app.send([began(1, 100, 100)], at: 0)
    try app.send([moved(1, 400, 100)], at: 0.5)  // 600 points a second: 12 points wide
    let widths = app.renderLiveLayer().commands.compactMap { command -> Double? in
      if case .segment(_, _, DrawView.inProgressColor, let width) = command { width } else { nil }
    }
    #expect(widths == [12])
    try app.send([ended(1, 400, 100)], at: 0.5)
    #expect(app.drawing.lines.map(\.width) == [12], "no snap at the lift: the finished line keeps that width")
  }

  @Test func aTwoFingerTapLeavesNoDotsAndUndoes() throws {
    let app = TouchTrackerApp()
    let log = BookLog(app)
    try app.drawLine(from: Point(x: 100, y: 100), to: Point(x: 300, y: 100), at: 0)
    try app.send([began(1, 200, 300), began(2, 260, 320)], at: 1)
    #expect(
      app.state.linesInProgress == 0 && app.state.circlesInProgress == 0, "nothing red while the fingers are down")
    try app.send([ended(1, 200, 300), ended(2, 260, 320)], at: 1.08)
    app.settle()
    #expect(app.drawing.isEmpty, "no dots, no circle, and the line is undone")
    #expect(app.drawView.model.canRedo)
    #expect(log.entries.contains("twoFingerTap(_:)"))
  }

  @Test func twoFingersThatMoveStillDrawACircle() throws {
    let app = TouchTrackerApp()
    try app.send([began(1, 200, 200), began(2, 300, 260)], at: 0)
    try app.send([moved(1, 180, 200), moved(2, 320, 300)], at: 0.05)
    try app.send([ended(1, 180, 200), ended(2, 320, 300)], at: 0.1)
    app.settle()
    #expect(app.drawing.circles.withoutIDs == [Circle(center: Point(x: 250, y: 250), radius: 70)])
    #expect(app.drawing.lines.isEmpty)
  }

  @Test func theThreeFingersOfASwipeNeverShowAsRedLines() throws {
    let app = TouchTrackerApp()
    try app.send([began(1, 300, 400), began(2, 350, 400), began(3, 400, 400)], at: 0)
    var redFrames = 0
    for step in 1...4 {
      let y = 400 - Double(step) * 15
      try app.send([moved(1, 300, y), moved(2, 350, y), moved(3, 400, y)], at: Double(step) * 0.02)
      if app.state.linesInProgress > 0 || app.state.circlesInProgress > 0 { redFrames += 1 }
    }
    #expect(app.state.paletteVisible)
    #expect(redFrames == 0)
  }

  @Test func oneFingerDrawingStartsAfterTenPointsAsBefore() throws {
    let app = TouchTrackerApp()
    try app.send([began(1, 100, 100)], at: 0)
    try app.send([moved(1, 108, 100)], at: 0.02)
    #expect(app.state.linesInProgress == 0, "held back while it could still be a tap")
    try app.send([moved(1, 115, 100)], at: 0.04)
    #expect(app.state.linesInProgress == 1, "past ten points every recognizer has let go")
  }
}
