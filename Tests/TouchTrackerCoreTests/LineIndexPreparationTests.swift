import Testing
import TouchTrackerTestSupport

@testable import TouchTrackerCore

/// The page builds the line index when idle after opening a drawing
/// (`tt_prepare_index`), so the first line drawn does not wait for it.
@Suite struct LineIndexPreparationTests {
  private func openedApp(lines count: Int) -> TouchTrackerApp {
    let app = TouchTrackerApp()
    let lines = (0..<count).map { Line(begin: Point(x: Double($0 % 50) * 10, y: 10), end: Point(x: 300, y: 400)) }
    app.drawView.load(Drawing(lines: lines))
    return app
  }

  @Test func aPreparedDrawingTakesItsFirstLineIntoTheIndexAsItIs() throws {
    let app = openedApp(lines: 500)
    #expect(!app.drawView.prepareLineIndex(upTo: 499), "more lines than allowed: left to the first tap or line")
    #expect(app.drawView.prepareLineIndex(upTo: 500))
    let built = app.drawView.lineIndex.buildCount
    #expect(!app.drawView.prepareLineIndex(upTo: 500), "built already")
    try app.drawLine(from: Point(x: 100, y: 500), to: Point(x: 300, y: 500), at: 1)
    #expect(app.drawView.drawing.lines.count == 501)
    #expect(app.drawView.lineIndex.buildCount == built, "no build for the first line")
  }

  @Test func anUnpreparedDrawingBuildsTheIndexForItsFirstLine() throws {
    let app = openedApp(lines: 500)
    let built = app.drawView.lineIndex.buildCount
    try app.drawLine(from: Point(x: 100, y: 500), to: Point(x: 300, y: 500), at: 1)
    #expect(app.drawView.lineIndex.buildCount == built + 1, "what preparing spares the first line")
  }
}
