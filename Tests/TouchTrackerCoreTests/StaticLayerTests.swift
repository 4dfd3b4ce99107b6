import Testing
import TouchKitTestSupport
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

  /// The fill that opens a section: the area it repaints (one point wider than the damage in its tile).
  private func area(of part: (tile: Rect, commands: [RenderCommand])) -> Rect? {
    guard case .fill(let rect, let color, _) = part.commands.first, color == DrawView.backgroundGray else { return nil }
    return rect
  }

  @Test(arguments: ["delete", "undo", "take", "move"])
  func aChangeToOneLineRepaintsOnlyItsRectangle(change: String) throws {
    let app = try twoLines()
    let painted = app.drawView.drawingVersion
    try act(change, on: app)
    #expect(app.drawView.drawingVersion != painted)
    #expect(app.drawView.staticLayerIncrement(since: painted) == nil)
    guard case .repaint(let rects, let list) = app.drawView.staticLayerUpdate(since: painted) else {
      Issue.record("expected a repaint")
      return
    }
    // The line from (100, 100) to (300, 100), 10 wide: its box grown by 5 + the antialias margin (2).
    let line = Rect(x: 93, y: 93, width: 214, height: 14)
    let parts = sections(list)
    for part in parts {
      #expect(!part.commands.contains { if case .segment(_, let to, _, _) = $0 { to.y == 500 } else { false } })
    }
    guard change != "move" else {
      // Taken (where it was), moved 30 right and 40 down, put back: where it was and where it went.
      let moved = line.union(Rect(x: line.minX + 30, y: line.minY + 40, width: line.width, height: line.height))
      #expect(rects == [line, moved])
      return
    }
    #expect(rects == [line])
    // 800 x 600 in 256-point tiles: the line crosses the first two of the first row, the far one lies in the second.
    let size = DrawView.staticTileSize
    #expect(
      parts.map(\.tile) == [
        Rect(x: 0, y: 0, width: size, height: size), Rect(x: size, y: 0, width: size, height: size),
      ])
    #expect(
      parts.map(area) == [Rect(x: 92, y: 92, width: 165, height: 16), Rect(x: 255, y: 92, width: 53, height: 16)])
  }

  /// Letting go of a moved line records two changes at once (the move, and the line back in the
  /// layer). The layer's log of recent changes is bounded: filling up between those two once made
  /// it forget the first, and the page repainted the whole layer (a 100k-line drawing, once every
  /// 64 changes: `change_cost.py` caught it).
  @Test func aHostOneFrameBehindRepaintsInPartWhenTheLogFillsUp() throws {
    for before in 56...68 {
      let app = try twoLines()
      for i in 0..<before {
        let y = 300 + Double(i % 20) * 10
        try app.drawLine(from: Point(x: 400, y: y), to: Point(x: 450, y: y), id: 10 + i, at: 1 + Double(i))
      }
      app.settle()
      let start = 2 + Double(before)
      try app.send([began(1, 200, 100)], at: start)
      app.advanceClock(to: start + 0.6)
      #expect(app.drawView.selectedLineIndex != nil)
      let painted = app.drawView.drawingVersion  // the take is on screen
      try app.send([moved(1, 230, 140)], at: start + 0.7)
      try app.send([ended(1, 230, 140)], at: start + 0.8)
      guard case .repaint(let rects, _) = app.drawView.staticLayerUpdate(since: painted) else {
        Issue.record("after \(before) lines, letting go of the moved line repainted more than its rectangles")
        continue
      }
      let line = Rect(x: 93, y: 93, width: 214, height: 14)
      let moved = line.union(Rect(x: line.minX + 30, y: line.minY + 40, width: line.width, height: line.height))
      #expect(rects == [moved])  // once: the move's own damage puts the line back where it went
    }
  }

  /// A host that repaints over frames (the page) says what its static layer shows: until it shows
  /// the line let go of after a long press, the live layer draws it, in its own color, where it went.
  /// A host that never says so (it paints a change at once) never gets it in the live layer.
  @Test(arguments: [true, false])
  func aLineLetGoOfStaysInTheLiveLayerUntilTheHostPaintedIt(hostPaintsOverFrames: Bool) throws {
    let app = try twoLines()
    if hostPaintsOverFrames { app.drawView.staticLayerPainted(version: app.drawView.drawingVersion) }
    let moved = RenderCommand.segment(
      from: Point(x: 130, y: 140), to: Point(x: 330, y: 140), color: .black, width: 10)
    try act("move", on: app)
    #expect(app.drawView.selectedLineIndex == nil)
    #expect(app.renderLiveLayer().commands.contains(moved) == hostPaintsOverFrames)
    app.drawView.staticLayerPainted(version: app.drawView.drawingVersion - 1)  // an older layer
    #expect(app.renderLiveLayer().commands.contains(moved) == hostPaintsOverFrames)
    app.drawView.staticLayerPainted(version: app.drawView.drawingVersion)
    #expect(!app.renderLiveLayer().commands.contains(moved))
  }

  @Test(arguments: ["clear", "load"])
  func clearingOrLoadingRepaintsEverything(change: String) throws {
    let app = try twoLines()
    let painted = app.drawView.drawingVersion
    try act(change, on: app)
    #expect(isWhole(app.drawView.staticLayerUpdate(since: painted), of: app))
  }

  @Test func eachRepaintedSectionHoldsEveryLineThatMeetsItsAreaInDrawingOrder() throws {
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
    guard case .repaint(let rects, let list) = app.drawView.staticLayerUpdate(since: painted) else {
      Issue.record("expected a repaint")
      return
    }
    #expect(rects == [lines[deleted].paintedBounds])
    let parts = sections(list)
    #expect(!parts.isEmpty)
    for part in parts {
      let area = try #require(self.area(of: part))
      #expect(area.insetBy(dx: 1, dy: 1).intersection(part.tile) == area.insetBy(dx: 1, dy: 1))
      let expected = lines.enumerated().filter {
        $0.offset != deleted && $0.element.paintedBounds.intersects(area)
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
