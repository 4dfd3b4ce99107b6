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

  /// A drawing with a line far away, then the line the changes act on (undo takes it back).
  private func twoLines() throws -> TouchTrackerApp {
    let app = TouchTrackerApp()
    try app.drawLine(from: Point(x: 100, y: 500), to: Point(x: 700, y: 500), id: 2, at: 0)
    try app.drawLine(from: Point(x: 100, y: 100), to: Point(x: 300, y: 100), at: 0.5)
    app.settle()
    return app
  }

  private func act(_ change: String, on app: TouchTrackerApp) throws {
    switch change {
    case "delete":
      try app.tap(at: Point(x: 200, y: 104), time: 1)
      app.settle()
      try app.tap(title: "Delete", at: 2)
    case "undo":
      app.undo()
    case "take":  // a long press lifts the line out of the static layer
      try app.send([began(1, 200, 100)], at: 1)
      app.advanceClock(to: 1.6)
    case "move":
      try app.send([began(1, 200, 100)], at: 1)
      app.advanceClock(to: 1.6)
      try app.send([moved(1, 230, 140)], at: 1.7)
      try app.send([ended(1, 230, 140)], at: 1.8)
    case "clear":
      try app.tap(at: Point(x: 600, y: 300), time: 1)
      try app.tap(at: Point(x: 600, y: 300), time: 1.1)
      app.settle()
    default:
      app.drawView.load(Drawing(lines: [Line(begin: .zero, end: Point(x: 5, y: 5))]))
    }
  }

  private func isWhole(_ update: StaticLayerUpdate, of app: TouchTrackerApp) -> Bool {
    guard case .whole(let list) = update, case .whole(let all) = app.drawView.wholeTiledLayer else { return false }
    return list == all
  }

  /// The sections of a tiled list: each clip rectangle with the commands after it.
  private func sections(_ list: RenderList) -> [(tile: Rect, commands: [RenderCommand])] {
    var result: [(tile: Rect, commands: [RenderCommand])] = []
    for command in list.commands {
      if case .clip(let rect) = command {
        result.append((rect, []))
      } else if !result.isEmpty {
        result[result.count - 1].commands.append(command)
      }
    }
    return result
  }

  @Test(arguments: ["delete", "undo", "take", "move"])
  func aChangeToOneLineRepaintsOnlyTheTilesItTouched(change: String) throws {
    let app = try twoLines()
    let painted = app.drawView.drawingVersion
    try act(change, on: app)
    #expect(app.drawView.drawingVersion != painted)
    #expect(app.drawView.staticLayerIncrement(since: painted) == nil)
    guard case .repaint(let tiles, let list) = app.drawView.staticLayerUpdate(since: painted) else {
      Issue.record("expected a repaint")
      return
    }
    // 800 x 600 in 256-point tiles: the line at y = 100 lies in the first row, the far one in the second.
    let size = DrawView.staticTileSize
    #expect(tiles == [Rect(x: 0, y: 0, width: size, height: size), Rect(x: size, y: 0, width: size, height: size)])
    let parts = sections(list)
    #expect(parts.map(\.tile) == tiles)
    for part in parts {
      #expect(
        part.commands.first == .fill(part.tile.insetBy(dx: -1, dy: -1), color: DrawView.backgroundGray, cornerRadius: 0)
      )
      #expect(!part.commands.contains { if case .segment(_, let to, _, _) = $0 { to.y == 500 } else { false } })
    }
  }

  @Test(arguments: ["clear", "load"])
  func clearingOrLoadingRepaintsEverything(change: String) throws {
    let app = try twoLines()
    let painted = app.drawView.drawingVersion
    try act(change, on: app)
    #expect(isWhole(app.drawView.staticLayerUpdate(since: painted), of: app))
  }

  @Test func eachRepaintedTileHoldsEveryLineThatMeetsItInDrawingOrder() throws {
    // A crowd of lines crossing the one that is deleted, drawn before and after it.
    let app = TouchTrackerApp()
    var lines: [Line] = []
    for i in 0..<30 {
      let x = 50 + Double(i) * 20
      lines.append(Line(begin: Point(x: x, y: 40), end: Point(x: 700 - x, y: 300), color: Color(rgb: UInt32(i))))
    }
    app.drawView.load(Drawing(lines: lines))
    let painted = app.drawView.drawingVersion
    try app.tap(at: Point(x: 350, y: 170), time: 1)
    app.settle()
    let deleted = try #require(app.drawView.selectedLineIndex)
    try app.tap(title: "Delete", at: 2)
    guard case .repaint(let tiles, let list) = app.drawView.staticLayerUpdate(since: painted) else {
      Issue.record("expected a repaint")
      return
    }
    #expect(!tiles.isEmpty)
    for part in sections(list) {
      let expected = lines.enumerated().filter {
        $0.offset != deleted && $0.element.paintedBounds.intersects(part.tile)
      }
      .map { RenderCommand.segment(from: $0.element.begin, to: $0.element.end, color: $0.element.color, width: 10) }
      #expect(Array(part.commands.dropFirst()) == expected)
    }
  }

  @Test func finishedLinesArePaintedOverEachTileTheyMeet() throws {
    let app = TouchTrackerApp()
    let painted = app.drawView.drawingVersion
    try app.drawLine(from: Point(x: 200, y: 100), to: Point(x: 300, y: 100), at: 0)
    guard case .append(let list) = app.drawView.staticLayerUpdate(since: painted) else {
      Issue.record("expected an append")
      return
    }
    let line = RenderCommand.segment(from: Point(x: 200, y: 100), to: Point(x: 300, y: 100), color: .black, width: 10)
    let size = DrawView.staticTileSize
    #expect(
      list.commands == [
        .clip(Rect(x: 0, y: 0, width: size, height: size)), line,
        .clip(Rect(x: size, y: 0, width: size, height: size)), line,
      ])
  }

  @Test func aHostFurtherBehindThanTheLogRepaintsEverything() throws {
    let app = try twoLines()
    let painted = app.drawView.drawingVersion
    for step in 0..<70 {
      step.isMultiple(of: 2) ? app.undo() : app.redo()
    }
    #expect(isWhole(app.drawView.staticLayerUpdate(since: painted), of: app))
  }
}
