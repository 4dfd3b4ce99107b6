import Testing
import TouchKitTestSupport
import TouchTrackerCore
import TouchTrackerTestSupport

/// Every gesture keeps the drawing within the document format's limits
/// (±1e9), so what the user drew can always be saved: a dragged line stops
/// at the limit, a finger beyond it draws to it.
@Suite struct DrawingLimitsTests {
  /// A drawing with one line reaching out to x = 999,999,990, as a saved
  /// document may have, opened in a fresh app.
  private func appWithALineNearTheLimit() -> TouchTrackerApp {
    let app = TouchTrackerApp()
    var drawing = Drawing()
    drawing.lines = [Line(begin: Point(x: 100, y: 100), end: Point(x: 999_999_990, y: 100))]
    app.drawView.load(drawing)
    return app
  }

  @Test func aLineDraggedPastTheLimitStopsThereAndComesBackWithTheFinger() throws {
    let app = appWithALineNearTheLimit()
    try app.send([began(1, 200, 100)], at: 0)
    app.advanceClock(to: 0.6)
    #expect(app.state.selectedLine == 0)
    try app.send([moved(1, 225, 110)], at: 0.7)
    try app.send([moved(1, 250, 120)], at: 0.8)
    #expect(
      app.drawing.lines[0].end == Point(x: 1_000_000_000, y: 120), "stopped at the limit, still following in y")
    #expect(app.drawing.lines[0].begin == Point(x: 110, y: 120))
    try app.send([moved(1, 220, 120)], at: 0.9)
    #expect(app.drawing.lines[0].begin == Point(x: 80, y: 120), "moves back at once")
    try app.send([ended(1, 220, 120)], at: 1.0)
    app.settle()
    #expect(app.drawing.lines.withoutIDs == [Line(begin: Point(x: 80, y: 120), end: Point(x: 999_999_970, y: 120))])
    #expect(throws: Never.self) { try DocumentCoder.validate(app.drawing) }
  }

  @Test func aDraggedLineNeverLeavesTheLimitWhateverTheFingerDoes() throws {
    let app = appWithALineNearTheLimit()
    try app.send([began(1, 200, 100)], at: 0)
    app.advanceClock(to: 0.6)
    for step in 1...20 {
      try app.send([moved(1, 200 + Double(step) * 5e8, 100 - Double(step) * 7e8)], at: 0.6 + Double(step) * 0.01)
      #expect(throws: Never.self) { try DocumentCoder.validate(app.drawing) }
    }
    try app.send([ended(1, 1e10, -1e10)], at: 1)
    app.settle()
    #expect(throws: Never.self) { try DocumentCoder.validate(app.drawing) }
    #expect(app.drawing.lines[0].end.x == 1_000_000_000)
    #expect(app.drawing.lines[0].begin.y == -1_000_000_000)
  }

  @Test func aFingerFarBeyondTheLimitDrawsALineToTheLimit() throws {
    let app = TouchTrackerApp()
    try app.send([began(1, 100, 100)], at: 0)
    try app.send([moved(1, 5e9, -3e12)], at: 0.02)
    try app.send([ended(1, 5e9, -3e12)], at: 0.04)
    app.settle()
    #expect(app.drawing.lines.withoutIDs == [Line(begin: Point(x: 100, y: 100), end: Point(x: 1e9, y: -1e9))])
  }

  @Test func aCircleDrawnWithAFingerFarBeyondTheLimitFitsTheFormat() throws {
    let app = TouchTrackerApp()
    try app.send([began(1, 100, 100), began(2, 200, 200)], at: 0)
    try app.send([moved(2, 4e12, 4e12)], at: 0.02)
    try app.send([ended(1, 100, 100), ended(2, 4e12, 4e12)], at: 0.04)
    app.settle()
    #expect(app.drawing.circles.count == 1)
    #expect(throws: Never.self) { try DocumentCoder.validate(app.drawing) }
    #expect(app.drawing.circles.first?.center == Point(x: 500_000_050, y: 500_000_050))
  }
}
