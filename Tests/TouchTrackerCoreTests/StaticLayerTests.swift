import Testing
import TouchTrackerCore

/// The host repaints the finished drawing only when it changes, and only the
/// new lines when lines were just added.
@Suite struct StaticLayerTests {
  @Test func finishingALineAddsExactlyThatSegment() throws {
    let app = TouchTrackerApp()
    try app.drawLine(from: Point(x: 10, y: 10), to: Point(x: 100, y: 10), at: 0)
    let painted = app.drawView.drawingVersion
    try app.drawLine(from: Point(x: 10, y: 50), to: Point(x: 100, y: 50), id: 2, at: 1)
    try app.drawLine(from: Point(x: 10, y: 90), to: Point(x: 100, y: 90), id: 3, at: 2)
    let increment = try #require(app.drawView.staticLayerIncrement(since: painted))
    #expect(
      increment.commands == [
        .segment(from: Point(x: 10, y: 50), to: Point(x: 100, y: 50), color: .black, width: 10),
        .segment(from: Point(x: 10, y: 90), to: Point(x: 100, y: 90), color: .black, width: 10),
      ])
    #expect(app.drawView.staticLayerIncrement(since: app.drawView.drawingVersion)?.isEmpty == true)
  }

  @Test(arguments: ["delete", "undo", "clear", "move", "load"])
  func anyOtherChangeAsksForTheWholeLayer(change: String) throws {
    let app = TouchTrackerApp()
    try app.drawLine(from: Point(x: 100, y: 100), to: Point(x: 300, y: 100), at: 0)
    let painted = app.drawView.drawingVersion
    switch change {
    case "delete":
      try app.tap(at: Point(x: 200, y: 104), time: 1)
      app.settle()
      try app.tap(title: "Delete", at: 2)
    case "undo":
      app.undo()
    case "clear":
      try app.tap(at: Point(x: 600, y: 500), time: 1)
      try app.tap(at: Point(x: 600, y: 500), time: 1.1)
      app.settle()
    case "move":
      try app.send([began(1, 200, 100)], at: 1)
      app.advanceClock(to: 1.6)
    default:
      app.drawView.load(Drawing(lines: [Line(begin: .zero, end: Point(x: 5, y: 5))]))
    }
    #expect(app.drawView.drawingVersion != painted)
    #expect(app.drawView.staticLayerIncrement(since: painted) == nil)
  }
}
