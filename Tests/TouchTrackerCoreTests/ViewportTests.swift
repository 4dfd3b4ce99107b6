import Testing
import TouchKitTestSupport
import TouchTrackerCore

/// Pan and zoom over a drawing larger than the window (issue 10, item 8):
/// the draw view's bounds origin and transform, two fingers that land and
/// move together, and what the page, the layers and exports see.
@Suite struct ViewportTests {
  /// Two fingers landing together at `a` and `b` and moving by `delta` in
  /// `steps` moves, then lifting; from `time`.
  private func twoFingers(
    _ app: TouchTrackerApp, _ a: Point, _ b: Point, by delta: Point, spread: Double = 0, steps: Int = 5,
    at time: Double
  ) throws {
    try app.send([began(1, a.x, a.y), began(2, b.x, b.y)], at: time)
    for step in 1...steps {
      let f = Double(step) / Double(steps)
      let d = delta * f
      try app.send(
        [moved(1, a.x + d.x - spread * f, a.y + d.y), moved(2, b.x + d.x + spread * f, b.y + d.y)],
        at: time + 0.02 * Double(step))
    }
    let end = delta
    try app.send(
      [ended(1, a.x + end.x - spread, a.y + end.y), ended(2, b.x + end.x + spread, b.y + end.y)],
      at: time + 0.02 * Double(steps + 1))
  }

  @Test func twoFingersMovingTogetherPanTheDrawingAndDrawNothing() throws {
    let app = try TouchTrackerApp.withOneLine()
    try twoFingers(app, Point(x: 400, y: 300), Point(x: 500, y: 300), by: Point(x: -120, y: 50), at: 1)
    app.settle()
    #expect(app.drawing.lines.count == 1 && app.drawing.circles.isEmpty, "no circle, no lines")
    #expect(app.drawView.linesInProgressCount == 0 && app.drawView.circlesInProgressCount == 0)
    #expect(app.drawView.contentOffset == Point(x: 120, y: -50))
    #expect(app.drawView.zoomScale == 1)
    // The line from (100, 100) to (300, 100) is now on screen at (-20, 150) to (180, 150).
    #expect(app.drawView.convert(Point(x: 100, y: 100), to: nil) == Point(x: -20, y: 150))
  }

  /// The book's circle is untouched: fingers that land together and
  /// spread draw it, as before.
  @Test func twoFingersSpreadingStillDrawACircle() throws {
    let app = TouchTrackerApp()
    try twoFingers(app, Point(x: 300, y: 300), Point(x: 340, y: 300), by: .zero, spread: 60, at: 0)
    app.settle()
    #expect(app.drawing.circles.count == 1)
    #expect(app.drawView.contentOffset == .zero && app.drawView.zoomScale == 1)
  }

  /// One finger held still while the other drags sideways sizes a circle
  /// (the distance between them hardly changes at first): no pan.
  @Test func oneStillFingerAndOneDraggingSidewaysDrawACircle() throws {
    let app = TouchTrackerApp()
    try app.send([began(1, 300, 300), began(2, 400, 300)], at: 0)
    for step in 1...4 {
      try app.send([moved(2, 400, 300 + 5 * Double(step))], at: 0.02 * Double(step))
    }
    try app.send([ended(1, 300, 300), ended(2, 400, 320)], at: 0.1)
    app.settle()
    #expect(app.drawView.contentOffset == .zero)
    #expect(app.drawing.circles.count == 1)
  }

  /// While a pen draws, two palms sliding together do not pan the drawing
  /// under its line.
  @Test func palmsDoNotPanWhileAPenIsInUse() throws {
    let app = TouchTrackerApp()
    var pen = TouchInput(id: 7, phase: .began, x: 100, y: 100)
    pen.type = .pencil
    try app.send([pen], at: 0)
    try app.send([began(1, 400, 400), began(2, 460, 400)], at: 0.1)
    for step in 1...5 {
      let y = 400 - 20 * Double(step)
      try app.send([moved(1, 400, y), moved(2, 460, y)], at: 0.1 + 0.02 * Double(step))
    }
    #expect(app.drawView.contentOffset == .zero)
    pen.phase = .ended
    try app.send([pen, ended(1, 400, 300), ended(2, 460, 300)], at: 0.3)
  }

  /// A tap's menu points at where its line was: panning or zooming takes it
  /// (and the selection) away, as a touch elsewhere does.
  @Test func panningHidesTheMenuAndDeselects() throws {
    let app = try TouchTrackerApp.withOneLine()
    try app.tap(at: Point(x: 200, y: 100), time: 1)
    app.settle()
    #expect(app.state.menu == ["Delete"])
    app.drawView.pan(by: Point(x: 0, y: 50))
    #expect(app.state.menu.isEmpty && app.state.selectedLine == nil)
  }

  /// Zooming in and out and back to 100% leaves the view exactly where it was.
  @Test func backAt100PercentCoordinatesAreExact() {
    let view = TouchTrackerApp().drawView
    for factor in [1.2346, 0.7, 3.3, 0.123] { view.zoom(by: factor, about: Point(x: 317.3, y: 211.9)) }
    view.setViewport(offset: .zero, zoom: 1)
    #expect(view.frame == Rect(x: 0, y: 0, width: 800, height: 600))
    #expect(view.convert(Point(x: 100.25, y: 33.5), to: nil) == Point(x: 100.25, y: 33.5))
  }

  /// Fingers that land apart in time draw a line each, even moving together.
  @Test func fingersLandingApartDrawTwoLines() throws {
    let app = TouchTrackerApp()
    try app.send([began(1, 100, 100)], at: 0)
    try app.send([began(2, 100, 200)], at: 0.2)
    for step in 1...5 {
      let x = 100 + 30 * Double(step)
      try app.send([moved(1, x, 100), moved(2, x, 200)], at: 0.2 + 0.02 * Double(step))
    }
    try app.send([ended(1, 250, 100), ended(2, 250, 200)], at: 0.4)
    app.settle()
    #expect(app.drawing.lines.count == 2)
    #expect(app.drawView.contentOffset == .zero)
  }

  /// Once panning, spreading the fingers zooms about them: the drawing's
  /// point that was between them when they landed stays between them.
  @Test func spreadingWhilePanningZoomsAboutTheFingers() throws {
    let app = TouchTrackerApp()
    let view = app.drawView
    try app.send([began(1, 300, 300), began(2, 400, 300)], at: 0)
    try app.send([moved(1, 300, 330), moved(2, 400, 330)], at: 0.02)
    try app.send([moved(1, 250, 330), moved(2, 450, 330)], at: 0.04)  // twice as far apart
    #expect(view.zoomScale == 2)
    // The drawing's (350, 300) was between them; it is between them still, at (350, 330).
    #expect(view.convert(Point(x: 350, y: 300), to: nil) == Point(x: 350, y: 330))
    // A line drawn now lands on the drawing's points under the finger.
    try app.send([ended(1, 250, 330), ended(2, 450, 330)], at: 0.06)
    try app.drawLine(from: Point(x: 350, y: 330), to: Point(x: 550, y: 330), at: 1)
    app.settle()
    #expect(app.drawing.lines.map { [$0.begin, $0.end] } == [[Point(x: 350, y: 300), Point(x: 450, y: 300)]])
  }

  @Test func wheelAndKeysPanAndZoomAboutAPoint() {
    let view = TouchTrackerApp().drawView
    #expect(view.pan(by: Point(x: -100, y: 40)))
    #expect(view.contentOffset == Point(x: 100, y: -40))
    #expect(view.zoom(by: 2, about: Point(x: 200, y: 100)))
    #expect(view.zoomScale == 2)
    #expect(view.convert(Point(x: 300, y: 60), to: nil) == Point(x: 200, y: 100), "the point under the wheel stays")
    view.zoomToActualSize()
    #expect(view.zoomScale == 1)
    #expect(!view.zoom(by: .nan, about: .zero) && !view.pan(by: Point(x: .infinity, y: 0)))
    view.zoom(by: 1000, about: .zero)
    #expect(view.zoomScale == DrawView.zoomRange.upperBound)
    view.zoom(by: 0.000_1, about: .zero)
    #expect(view.zoomScale == DrawView.zoomRange.lowerBound)
    #expect(view.screenSize == Size(width: 800, height: 600), "the view still fills the window")
  }

  /// "Fit" shows the whole drawing, lines beyond the window included.
  @Test func fitShowsTheWholeDrawing() throws {
    let app = TouchTrackerApp()
    try app.drawLine(from: Point(x: 100, y: 100), to: Point(x: 300, y: 100), at: 0)
    app.drawView.pan(by: Point(x: -2000, y: 0))
    try app.drawLine(from: Point(x: 100, y: 500), to: Point(x: 300, y: 500), at: 1)  // the drawing's x 2100...2300
    app.settle()
    #expect(app.drawing.lines[1].begin == Point(x: 2100, y: 500))
    app.drawView.zoomToFit()
    let window = app.application.window.bounds
    for line in app.drawing.lines {
      for point in [line.begin, line.end] {
        #expect(window.contains(app.drawView.convert(point, to: nil)), "\(point) on screen")
      }
    }
    #expect(app.drawView.zoomScale < 1)
  }

  /// Selecting: a tap reaches 20 points on screen, whatever the zoom (the
  /// finger is as big as ever; the drawing under it is not).
  @Test func aTapSelectsWithinTwentyPointsOnScreen() throws {
    let app = try TouchTrackerApp.withOneLine()
    app.drawView.zoom(by: 2, about: .zero)  // the line is now at y 200 on screen
    try app.tap(at: Point(x: 400, y: 230), time: 2)
    app.settle()
    #expect(app.state.selectedLine == nil, "30 on screen (15 of the drawing's) is too far")
    try app.tap(at: Point(x: 400, y: 215), time: 4)
    app.settle()
    #expect(app.state.selectedLine == 0, "15 on screen")
    app.drawView.deselect()
    app.drawView.setViewport(offset: .zero, zoom: 0.5)  // the line at y 50 on screen
    try app.tap(at: Point(x: 100, y: 65), time: 6)
    app.settle()
    #expect(app.state.selectedLine == 0, "15 on screen is 30 of the drawing's: still selected")
  }

  /// The page's static layer is in window coordinates: what is painted for
  /// the whole layer is the drawing moved and scaled, and a change
  /// repaints only its rectangle on screen.
  @Test func theStaticLayerFollowsTheViewport() throws {
    let app = try TouchTrackerApp.withOneLine()
    let view = app.drawView
    view.setViewport(offset: Point(x: 50, y: 0), zoom: 2)
    guard case .whole(let list) = view.wholeTiledLayer else {
      Issue.record("a whole layer")
      return
    }
    #expect(
      list.commands.contains(
        .segment(from: Point(x: 100, y: 200), to: Point(x: 500, y: 200), color: .black, width: 20)))
    let painted = view.drawingVersion
    try app.tap(at: Point(x: 300, y: 200), time: 2)
    app.settle()
    try app.tap(title: "Delete", at: 3)
    guard case .repaint(let rects, _) = view.staticLayerUpdate(since: painted) else {
      Issue.record("a repaint of the line's rectangle")
      return
    }
    #expect(rects.count == 1)
    #expect(rects[0].minX <= 100 - 10 && rects[0].maxX >= 500 + 10 && rects[0].minY <= 190 && rects[0].maxY >= 210)
    #expect(rects[0].maxX < 520 && rects[0].minY > 180, "on screen, not the drawing's rectangle")
  }

  /// A recording holds the page's pan and zoom, so it replays every touch
  /// onto the same points of the drawing.
  @Test func aRecordingReplaysPanAndZoom() throws {
    let trace = try Trace.decode(
      """
      {"size": {"width": 800, "height": 600}, "events": [
        {"time": 0, "viewport": {"x": 100, "y": 50, "zoom": 2}},
        {"time": 0.1, "touches": [{"id": 1, "phase": "began", "x": 0, "y": 0}]},
        {"time": 0.2, "touches": [{"id": 1, "phase": "moved", "x": 200, "y": 0}]},
        {"time": 0.3, "touches": [{"id": 1, "phase": "ended", "x": 200, "y": 0}]}
      ]}
      """)
    let app = try Replay.run(trace)
    #expect(app.drawing.lines.map { [$0.begin, $0.end] } == [[Point(x: 100, y: 50), Point(x: 200, y: 50)]])
    #expect(String(decoding: trace.encode(), as: UTF8.self).contains(#""viewport":{"x":100,"y":50,"zoom":2}"#))
  }

  /// A trace without a version plays the book's rules: two fingers that
  /// land together and move together draw their circle; version 2 pans.
  @Test func aTraceWithoutAVersionKeepsTheBooksTwoFingerRules() throws {
    func run(_ version: String) throws -> TouchTrackerApp {
      try Replay.run(
        try Trace.decode(
          """
          {"size": {"width": 800, "height": 600}\(version), "events": [
            {"time": 0, "touches": [{"id": 1, "phase": "began", "x": 300, "y": 300}, {"id": 2, "phase": "began", "x": 400, "y": 300}]},
            {"time": 0.05, "touches": [{"id": 1, "phase": "moved", "x": 300, "y": 250}, {"id": 2, "phase": "moved", "x": 400, "y": 250}]},
            {"time": 0.1, "touches": [{"id": 1, "phase": "ended", "x": 300, "y": 250}, {"id": 2, "phase": "ended", "x": 400, "y": 250}]}
          ]}
          """))
    }
    let book = try run("")
    #expect(book.drawing.circles.count == 1 && book.drawView.contentOffset == .zero)
    let now = try run(#", "version": 2"#)
    #expect(now.drawing.circles.isEmpty && now.drawView.contentOffset == Point(x: 0, y: 50))
    #expect(throws: FormatError("Expected an integer from 1 to 2 at version")) {
      try Trace.decode(#"{"version": 3, "events": []}"#)
    }
  }

  @Test func aBadViewportInATraceNamesItsPlace() {
    #expect(throws: FormatError.self) {
      try Trace.decode(#"{"events": [{"time": 0, "viewport": {"x": 0, "y": 0, "zoom": 0}}]}"#)
    }
    #expect(
      throws: FormatError("Zoom must be between 0.1 and 8 at events[0].viewport.zoom")
    ) { try Trace.decode(#"{"events": [{"time": 0, "viewport": {"x": 0, "y": 0, "zoom": 50}}]}"#) }
  }

  /// Exports hold the whole drawing: the window's canvas at the origin,
  /// grown to every line with a margin.
  @Test func theSVGCoversLinesBeyondTheWindow() throws {
    let app = TouchTrackerApp()
    try app.drawLine(from: Point(x: 100, y: 100), to: Point(x: 300, y: 100), at: 0)
    app.drawView.pan(by: Point(x: 500, y: 0))
    try app.drawLine(from: Point(x: 100, y: 300), to: Point(x: 200, y: 300), at: 1)  // the drawing's -400...-300
    app.settle()
    let svg = SVGWriter.svg(for: app.drawing, size: Size(width: 800, height: 600))
    // The left line's painted edge (half its width and the antialiased edge) is at -407; 20 more of margin.
    #expect(
      svg.hasPrefix(#"<svg xmlns="http://www.w3.org/2000/svg" width="1227" height="600" viewBox="-427 0 1227 600">"#))
    #expect(svg.contains(#"<rect x="-427" y="0" width="1227" height="600""#))
  }
}

/// The book's circle when the fingers do not land in the same event: a
/// second finger within 80 ms of the first (issue 10, item 9), before the
/// first has moved, makes the two a circle.
@Suite struct CircleLandingWindowTests {
  @Test func aSecondFingerWithin80MillisecondsMakesACircle() throws {
    let app = TouchTrackerApp()
    try app.send([began(1, 200, 200)], at: 0)
    try app.send([began(2, 300, 260)], at: 0.05)
    try app.send([moved(1, 180, 200), moved(2, 320, 300)], at: 0.07)
    try app.send([ended(1, 180, 200), ended(2, 320, 300)], at: 0.09)
    app.settle()
    #expect(app.drawing.lines.isEmpty)
    #expect(app.drawing.circles.withoutIDs == [Circle(center: Point(x: 250, y: 250), radius: 70)])
  }

  /// Many fingers landing in a burst draw lines: a third within the window
  /// makes the first two (which landed apart) lines again, each from where
  /// it landed. Two that landed in one event stay the book's circle.
  @Test func aThirdFingerSoonAfterMakesThemAllLines() throws {
    let app = TouchTrackerApp()
    try app.send([began(1, 100, 100)], at: 0)
    try app.send([began(2, 100, 300)], at: 0.03)
    try app.send([began(3, 100, 500)], at: 0.06)
    try app.send([moved(1, 300, 100), moved(2, 300, 300), moved(3, 300, 500)], at: 0.1)
    try app.send([ended(1, 300, 100), ended(2, 300, 300), ended(3, 300, 500)], at: 0.12)
    app.settle()
    #expect(app.drawing.circles.isEmpty)
    #expect(
      Set(app.drawing.lines.map { [$0.begin, $0.end] }) == [
        [Point(x: 100, y: 100), Point(x: 300, y: 100)], [Point(x: 100, y: 300), Point(x: 300, y: 300)],
        [Point(x: 100, y: 500), Point(x: 300, y: 500)],
      ])
    #expect(app.drawView.linesInProgressCount == 0)
  }

  /// The window is measured on screen: zoomed out to 0.1, a first finger
  /// that moved 5 points on screen (50 of the drawing's) still makes a circle.
  @Test func theLandingSlopIsOnScreen() throws {
    let app = TouchTrackerApp()
    app.drawView.setViewport(offset: .zero, zoom: 0.1)
    try app.send([began(1, 200, 200)], at: 0)
    try app.send([moved(1, 205, 200)], at: 0.02)
    try app.send([began(2, 300, 260)], at: 0.05)
    try app.send([moved(1, 185, 200), moved(2, 320, 300)], at: 0.07)
    try app.send([ended(1, 185, 200), ended(2, 320, 300)], at: 0.09)
    app.settle()
    #expect(app.drawing.circles.count == 1 && app.drawing.lines.isEmpty)
  }

  /// A circle being sized keeps going when another finger lands later.
  @Test func aCircleAlreadySizedStaysACircle() throws {
    let app = TouchTrackerApp()
    try app.send([began(1, 200, 200), began(2, 300, 300)], at: 0)
    try app.send([moved(1, 180, 180), moved(2, 320, 320)], at: 0.03)
    try app.send([began(3, 600, 500)], at: 0.06)
    #expect(app.drawView.circlesInProgressCount == 1 && app.drawView.linesInProgressCount == 1)
  }

  @Test func aSecondFingerLaterOrAfterTheFirstMovedDrawsItsOwnLine() throws {
    for (landing, firstMove) in [(0.12, 0.0), (0.05, 30.0)] {
      let app = TouchTrackerApp()
      try app.send([began(1, 200, 200)], at: 0)
      if firstMove > 0 { try app.send([moved(1, 200 + firstMove, 200)], at: 0.03) }
      try app.send([began(2, 300, 400)], at: landing)
      try app.send([moved(1, 260, 150), moved(2, 400, 480)], at: landing + 0.02)
      try app.send([ended(1, 260, 150), ended(2, 400, 480)], at: landing + 0.04)
      app.settle()
      #expect(app.drawing.circles.isEmpty, "landing \(landing), first finger moved \(firstMove)")
      #expect(app.drawing.lines.count == 2)
    }
  }
}

@Suite struct CanvasGestureAndSwipeTests {
  /// Three fingers swiping up open the palette; the two-finger pan does not take them.
  @Test func threeFingersSwipingUpOpenThePaletteAndDoNotPan() throws {
    let app = TouchTrackerApp()
    try app.send([began(1, 300, 500), began(2, 400, 500), began(3, 500, 500)], at: 0)
    for step in 1...5 {
      let y = 500 - 40 * Double(step)
      try app.send([moved(1, 300, y), moved(2, 400, y), moved(3, 500, y)], at: 0.02 * Double(step))
    }
    try app.send([ended(1, 300, 300), ended(2, 400, 300), ended(3, 500, 300)], at: 0.12)
    app.settle()
    #expect(app.state.paletteVisible)
    #expect(app.drawView.contentOffset == .zero)
    #expect(app.drawing.lines.isEmpty)
  }
}
