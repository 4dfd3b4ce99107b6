import Testing
import TouchKitTestSupport
import TouchTrackerCore
import TouchTrackerTestSupport

@Suite struct SelectionAndMenuTests {
  @Test func aDoubleTapClearsEverythingAndLeavesNoDot() throws {
    let app = try TouchTrackerApp.withOneLine()
    try app.send([began(1, 400, 400), began(2, 500, 400)], at: 1)
    try app.send([moved(1, 380, 400), moved(2, 520, 400)], at: 1.05)
    try app.send([ended(1, 380, 400), ended(2, 520, 400)], at: 1.1)
    #expect(app.drawing.circles.count == 1)
    try app.tap(at: Point(x: 600, y: 300), time: 2)
    try app.tap(at: Point(x: 602, y: 301), time: 2.15)
    app.settle()
    #expect(app.drawing.isEmpty)
    #expect(
      app.state
        == AppState(selectedLine: nil, menu: [], paletteVisible: false, linesInProgress: 0, circlesInProgress: 0))
  }

  @Test func aTapNeverShowsARedDotWhileTheFingerIsDown() throws {
    let app = try TouchTrackerApp.withOneLine()
    try app.send([began(1, 600, 300)], at: 2)
    #expect(app.state.linesInProgress == 0, "the double tap holds the touch back until it knows")
    try app.send([ended(1, 600, 300)], at: 2.05)
    app.settle()
    #expect(app.drawing.lines.count == 1)
  }

  @Test func aTapFivePointsFromALineSelectsItAndShowsDelete() throws {
    let app = try TouchTrackerApp.withOneLine()
    try app.tap(at: Point(x: 200, y: 105), time: 2)
    app.settle()
    #expect(app.state.selectedLine == 0)
    #expect(app.state.menu == ["Delete"])
    #expect(app.drawView.isFirstResponder)
    #expect(
      app.renderLiveLayer().commands.contains(
        .segment(from: Point(x: 100, y: 100), to: Point(x: 300, y: 100), color: DrawView.selectedColor, width: 10)))
  }

  @Test func theSelectedLineAndALineInProgressHaveADarkEdgeAgainstThePaper() throws {
    let app = try TouchTrackerApp.withOneLine()
    try app.tap(at: Point(x: 200, y: 105), time: 2)
    app.settle()
    let selected = app.renderLiveLayer().commands
    let green = try #require(
      selected.firstIndex(
        of: .segment(
          from: Point(x: 100, y: 100), to: Point(x: 300, y: 100), color: DrawView.selectedColor, width: 10)))
    #expect(
      selected[..<green].contains(
        .segment(from: Point(x: 100, y: 100), to: Point(x: 300, y: 100), color: .black, width: 13)),
      "1.5 points of black each side, under the green")
    app.drawView.setViewport(offset: .zero, zoom: 2)
    try app.send([TouchInput(id: 9, phase: .began, location: Point(x: 40, y: 500))], at: 3)
    try app.send([TouchInput(id: 9, phase: .moved, location: Point(x: 80, y: 500))], at: 3.05)
    let drawing = app.renderLiveLayer().commands
    #expect(
      drawing.contains(.segment(from: Point(x: 40, y: 500), to: Point(x: 80, y: 500), color: .black, width: 23)),
      "on screen at 200%: the line 20 points wide, its edge 1.5 a side")
  }

  @Test func selectionUsesTheTrueDistanceToTheSegmentNotItsEndpoints() throws {
    let app = TouchTrackerApp()
    try app.drawLine(from: Point(x: 100, y: 100), to: Point(x: 700, y: 100), at: 0)
    // 15 pt from the middle of a long line, 300 pt from either end.
    try app.tap(at: Point(x: 400, y: 115), time: 1)
    app.settle()
    #expect(app.state.selectedLine == 0)
  }

  @Test func tappingDeleteRemovesTheLineAndUndoBringsItBack() throws {
    let app = try TouchTrackerApp.withOneLine()
    let line = app.drawing.lines[0]
    try app.tap(at: Point(x: 200, y: 105), time: 2)
    app.settle()
    try app.tap(title: "Delete", at: 3)
    #expect(app.drawing.lines.isEmpty)
    #expect(app.state.menu.isEmpty, "the menu hides after its command")
    #expect(app.state.selectedLine == nil)
    app.undo()
    #expect(app.drawing.lines == [line], "the same line, id and all")
    app.redo()
    #expect(app.drawing.lines.isEmpty)
  }

  @Test func tappingEmptySpaceDeselectsAndHidesTheMenu() throws {
    let app = try TouchTrackerApp.withOneLine()
    try app.tap(at: Point(x: 200, y: 105), time: 2)
    app.settle()
    try app.tap(at: Point(x: 600, y: 500), time: 3)
    app.settle()
    #expect(app.state.selectedLine == nil)
    #expect(app.state.menu.isEmpty)
  }

  @Test func tappingATitleThatIsNotOnScreenIsAnError() throws {
    let app = try TouchTrackerApp.withOneLine()
    #expect(throws: TapError.noVisibleControl("Delete")) { try app.tap(title: "Delete", at: 2) }
    #expect(TapError.noVisibleControl("Delete").message == "No visible control titled 'Delete'")
  }

  @Test func aLongPressOnALineLetsTheFingerMoveItExactly() throws {
    let app = try TouchTrackerApp.withOneLine()
    try app.send([began(1, 200, 102)], at: 2)
    app.advanceClock(to: 2.6)
    #expect(app.state.selectedLine == 0)
    try app.send([moved(1, 210, 112)], at: 2.7)
    try app.send([moved(1, 250, 152)], at: 2.8)
    #expect(app.drawing.lines[0].begin == Point(x: 150, y: 150), "the line keeps up with the finger")
    try app.send([ended(1, 250, 152)], at: 2.9)
    app.settle()
    #expect(app.drawing.lines.withoutIDs == [Line(begin: Point(x: 150, y: 150), end: Point(x: 350, y: 150))])
    #expect(app.state.selectedLine == nil, "releasing deselects")
    #expect(app.state.linesInProgress == 0)
    #expect(app.drawing.lines.count == 1, "moving draws no line")
    app.undo()
    #expect(app.drawing.lines.withoutIDs == [Line(begin: Point(x: 100, y: 100), end: Point(x: 300, y: 100))])
  }

  @Test func aLongPressAwayFromLinesStillDrawsASlowLine() throws {
    let app = try TouchTrackerApp.withOneLine()
    try app.send([began(1, 500, 400)], at: 2)
    app.advanceClock(to: 3)
    try app.send([moved(1, 600, 400)], at: 3.1)
    try app.send([ended(1, 600, 400)], at: 3.2)
    app.settle()
    #expect(app.drawing.lines.last?.withoutID == Line(begin: Point(x: 500, y: 400), end: Point(x: 600, y: 400)))
  }

  @Test func aLineSelectedByATapNeverMovesWhileTheUserDraws() throws {
    let app = try TouchTrackerApp.withOneLine()
    try app.tap(at: Point(x: 200, y: 105), time: 2)
    app.settle()
    try app.drawLine(from: Point(x: 100, y: 400), to: Point(x: 300, y: 500), at: 3)
    app.settle()
    #expect(app.drawing.lines[0].withoutID == Line(begin: Point(x: 100, y: 100), end: Point(x: 300, y: 100)))
    #expect(app.drawing.lines.count == 2)
  }

  @Test func aThreeFingerSwipeUpOpensThePaletteWithoutStrayLines() throws {
    let app = TouchTrackerApp()
    try app.send([began(1, 300, 400), began(2, 350, 400), began(3, 400, 400)], at: 0)
    for step in 1...4 {
      let y = 400 - Double(step) * 25
      try app.send([moved(1, 300, y), moved(2, 350, y), moved(3, 400, y)], at: Double(step) * 0.02)
    }
    try app.send([ended(1, 300, 300), ended(2, 350, 300), ended(3, 400, 300)], at: 0.1)
    app.settle()
    #expect(app.state.paletteVisible)
    #expect(app.drawing.isEmpty)
    #expect(app.visibleButtons.map { $0.title } == ["Black", "Red", "Green", "Blue", "Orange", "Purple", "By Angle"])
    try app.tap(title: "Red", at: 1)
    #expect(!app.state.paletteVisible)
    try app.drawLine(from: Point(x: 100, y: 100), to: Point(x: 200, y: 100), at: 2)
    #expect(app.drawing.lines.map { $0.color.hex } == ["#b0001e"])
  }

  @Test func undoAndRedoCoverAddDeleteMoveAndClear() throws {
    let app = TouchTrackerApp()
    try app.drawLine(from: Point(x: 100, y: 100), to: Point(x: 300, y: 100), at: 0)
    try app.drawLine(from: Point(x: 100, y: 300), to: Point(x: 300, y: 300), id: 2, at: 1)
    let two = app.drawing
    try app.tap(at: Point(x: 600, y: 500), time: 2)
    try app.tap(at: Point(x: 600, y: 500), time: 2.1)
    app.settle()
    #expect(app.drawing.isEmpty)
    app.undo()
    #expect(app.drawing == two, "undoing a clear brings every line back")
    app.undo()
    #expect(app.drawing.lines.count == 1)
    app.redo()
    app.redo()
    #expect(app.drawing.isEmpty)
    app.undo()
    #expect(app.drawing == two)
  }

  @Test func aNewChangeClearsRedo() throws {
    let app = TouchTrackerApp()
    try app.drawLine(from: Point(x: 100, y: 100), to: Point(x: 300, y: 100), at: 0)
    app.undo()
    #expect(app.drawView.model.canRedo)
    try app.drawLine(from: Point(x: 100, y: 300), to: Point(x: 300, y: 300), at: 1)
    #expect(!app.drawView.model.canRedo)
  }
}

@Suite struct MenuDismissalTests {
  private func appWithMenuShown() throws -> TouchTrackerApp {
    let app = TouchTrackerApp()
    try app.drawLine(from: Point(x: 100, y: 100), to: Point(x: 300, y: 100), at: 0)
    try app.tap(at: Point(x: 200, y: 105), time: 1)
    app.settle()
    #expect(app.state.menu == ["Delete"])
    return app
  }

  @Test func deletingWithoutTheMenuHidesItToo() throws {
    let app = try appWithMenuShown()
    app.drawView.deleteSelectedLine()
    #expect(app.state.menu.isEmpty)
    #expect(app.drawing.lines.isEmpty)
  }

  @Test func theMenuStaysInsideTheWindowAfterAResize() throws {
    let app = TouchTrackerApp()
    try app.drawLine(from: Point(x: 600, y: 500), to: Point(x: 780, y: 500), at: 0)
    try app.tap(at: Point(x: 770, y: 505), time: 1)
    app.settle()
    app.resize(to: Size(width: 400, height: 300))
    let menu = try #require(app.application.menuController.visibleButtons.first)
    let frame = Rect(origin: menu.convert(toWindow: .zero), size: menu.frame.size)
    #expect(frame.maxX <= 400 && frame.maxY <= 300 && frame.minX >= 0 && frame.minY >= 0)
  }
}
