import Testing
import TouchKitTestSupport

@testable import TouchTrackerCore

/// Pens in the app (issue 9, item 4): a pen's pressure sets its line's
/// width as it draws, and while a pen is in use fingers do not draw (palm
/// rejection) but still tap, select and move lines.
@Suite struct PenDrawingTests {
  static func pen(_ id: Int, _ phase: TouchPhase, _ x: Double, _ y: Double, force: Double) -> TouchInput {
    TouchInput(
      id: id, phase: phase, location: Point(x: x, y: y), type: .pencil,
      hardware: TouchHardware(force: force, maximumPossibleForce: 2))
  }

  /// A pen stroke from (100, 200) to (300, 200) pressed with `force`; the lift reports no force, as browsers do.
  static func stroke(_ app: TouchTrackerApp, id: Int = 1, y: Double = 200, force: Double, at time: Double) throws {
    try app.send([pen(id, .began, 100, y, force: force)], at: time)
    try app.send([pen(id, .moved, 200, y, force: force)], at: time + 0.02)
    try app.send([pen(id, .moved, 300, y, force: force)], at: time + 0.04)
    try app.send([pen(id, .ended, 300, y, force: 0)], at: time + 0.06)
  }

  @Test(arguments: [(0.0, 1.0), (0.2, 2.0), (1.0, 10.0), (2.0, 20.0), (4.2, 40.0), (9.0, 40.0)])
  func aPensWidthIsTenPointsTimesItsForceFrom1To40(force: Double, width: Double) {
    #expect(abs(DrawingOptions().width(forPenForce: force) - width) < 1e-9)
  }

  @Test func aLightPenDrawsThinnerThanAFirmOne() throws {
    let app = TouchTrackerApp()
    try Self.stroke(app, force: 0.3, at: 0)
    try Self.stroke(app, y: 300, force: 1.8, at: 1)
    #expect(app.drawing.lines.map(\.width) == [3, 18])
  }

  @Test func theWidthFollowsThePressureWhileTheLineIsDrawn() throws {
    let app = TouchTrackerApp()
    try app.send([Self.pen(1, .began, 100, 100, force: 0.4)], at: 0)
    #expect(app.drawView.linesInProgress.first?.line.width == 4)
    try app.send([Self.pen(1, .moved, 150, 100, force: 1.6)], at: 0.02)
    #expect(app.drawView.linesInProgress.first?.line.width == 16)
    try app.send([Self.pen(1, .moved, 200, 100, force: 0.8)], at: 0.04)
    #expect(app.drawView.linesInProgress.first?.line.width == 8)
    // Lifting reports no force: the line keeps the width it was drawn at.
    try app.send([Self.pen(1, .ended, 200, 100, force: 0)], at: 0.06)
    #expect(app.drawing.lines.map(\.width) == [8])
  }

  @Test func pressureWinsOverWidthsBySpeed() throws {
    let app = TouchTrackerApp()
    app.drawView.options.widthMode = .bySpeed
    try Self.stroke(app, force: 0.5, at: 0)
    #expect(app.drawing.lines.map(\.width) == [5])
  }

  @Test func aPenWithoutPressureAndAFingerDrawAsBefore() throws {
    let app = TouchTrackerApp()
    try app.send([TouchInput(id: 1, phase: .began, location: Point(x: 100, y: 100), type: .pencil)], at: 0)
    try app.send([TouchInput(id: 1, phase: .moved, location: Point(x: 300, y: 100), type: .pencil)], at: 0.04)
    try app.send([TouchInput(id: 1, phase: .ended, location: Point(x: 300, y: 100), type: .pencil)], at: 0.06)
    try app.drawLine(from: Point(x: 100, y: 300), to: Point(x: 300, y: 300), id: 2, at: 10)
    #expect(app.drawing.lines.map(\.width) == [10, 10])
  }

  @Test func aFingerDoesNotDrawWhileAPenIsDown() throws {
    let app = TouchTrackerApp()
    try app.send([Self.pen(1, .began, 100, 100, force: 1)], at: 0)
    try app.drawLine(from: Point(x: 100, y: 300), to: Point(x: 300, y: 300), id: 2, at: 0.1)
    try app.send([Self.pen(1, .moved, 300, 100, force: 1)], at: 0.3)
    try app.send([Self.pen(1, .ended, 300, 100, force: 0)], at: 0.4)
    #expect(app.drawing.lines.count == 1)
    #expect(app.drawing.lines.first?.begin == Point(x: 100, y: 100))
  }

  @Test func aPalmThatLandedFirstIsDroppedWhenThePenComesDown() throws {
    let app = TouchTrackerApp()
    try app.send([began(2, 100, 300)], at: 0)
    try app.send([moved(2, 200, 300)], at: 0.05)
    #expect(app.drawView.linesInProgress.count == 1)
    try app.send([Self.pen(1, .began, 100, 100, force: 1)], at: 0.1)
    #expect(app.drawView.linesInProgress.count == 1)
    try app.send([ended(2, 200, 300), Self.pen(1, .ended, 300, 100, force: 0)], at: 0.2)
    #expect(app.drawing.lines.count == 1)
    #expect(app.drawing.lines.first?.begin == Point(x: 100, y: 100))
  }

  @Test func fingersStillDoNotDrawShortlyAfterThePenLifts() throws {
    let app = TouchTrackerApp()
    try Self.stroke(app, force: 1, at: 0)
    // 0.06 s the pen lifted; 4.9 s later a palm still does not draw.
    try app.drawLine(from: Point(x: 100, y: 300), to: Point(x: 300, y: 300), id: 2, at: 0.06 + 4.9)
    #expect(app.drawing.lines.count == 1)
    #expect(app.drawView.isPenInUse(at: 0.06 + DrawView.penInUseInterval))
    #expect(!app.drawView.isPenInUse(at: 0.06 + DrawView.penInUseInterval + 0.01))
    try app.drawLine(from: Point(x: 100, y: 300), to: Point(x: 300, y: 300), id: 2, at: 6)
    #expect(app.drawing.lines.count == 2)
  }

  @Test func twoFingersDoNotDrawACircleWhileAPenIsDown() throws {
    let app = TouchTrackerApp()
    try app.send([Self.pen(1, .began, 50, 50, force: 1)], at: 0)
    try app.send([began(2, 100, 300), began(3, 200, 400)], at: 0.1)
    // Moving together past the recognizers' 10 pt, they reach the view (as
    // without a pen they would start a circle) and are taken for palms.
    try app.send([moved(2, 115, 315), moved(3, 215, 415)], at: 0.15)
    #expect(app.drawView.circlesInProgress.isEmpty)
    #expect(app.drawView.linesInProgress.count == 1, "the pen's line only")
    try app.send([ended(2, 115, 315), ended(3, 215, 415), Self.pen(1, .ended, 50, 50, force: 0)], at: 0.2)
    #expect(app.drawing.circles.isEmpty)
  }

  /// Only fingers are palms: a mouse beside a pen tablet still draws.
  @Test func aMouseStillDrawsWhileAPenIsInUse() throws {
    let app = TouchTrackerApp()
    try Self.stroke(app, force: 1, at: 0)
    let mouse = { (phase: TouchPhase, x: Double) in
      TouchInput(id: 7, phase: phase, location: Point(x: x, y: 500), type: .indirectPointer)
    }
    try app.send([mouse(.began, 100)], at: 1)
    try app.send([mouse(.moved, 200)], at: 1.05)
    try app.send([mouse(.moved, 300)], at: 1.1)
    try app.send([mouse(.ended, 300)], at: 1.15)
    app.settle()
    #expect(app.drawing.lines.count == 2)
  }

  @Test func aFingerStillTapsToSelectWhileAPenIsDown() throws {
    let app = try TouchTrackerApp.withOneLine()
    try app.send([Self.pen(1, .began, 600, 500, force: 1)], at: 1)
    try app.tap(at: Point(x: 200, y: 104), time: 1.1)
    app.advanceClock(to: 2)
    #expect(app.drawView.selectedLineIndex == 0)
  }

  @Test func withPalmRejectionOffFingersDrawBesideAPen() throws {
    let app = TouchTrackerApp()
    app.drawView.options.penOnlyDraws = false
    try app.send([Self.pen(1, .began, 100, 100, force: 1)], at: 0)
    try app.drawLine(from: Point(x: 100, y: 300), to: Point(x: 300, y: 300), id: 2, at: 0.1)
    try app.send([Self.pen(1, .ended, 300, 100, force: 0)], at: 0.4)
    #expect(app.drawing.lines.count == 2)
    #expect(!app.drawView.isPenInUse(at: 0.4))
  }

  @Test func coalescedSamplesCountInTheDistanceForWidthsBySpeed() throws {
    // The same path as one move with its samples coalesced, or as separate moves: the same width.
    func width(coalesced: Bool) throws -> Double {
      let app = TouchTrackerApp()
      app.drawView.options.widthMode = .bySpeed
      try app.send([began(1, 100, 100)], at: 0)
      let corner = TouchSample(location: Point(x: 300, y: 100), timestamp: 0.5)
      if coalesced {
        try app.send([TouchInput(id: 1, phase: .moved, location: Point(x: 300, y: 300), coalesced: [corner])], at: 1)
      } else {
        try app.send([moved(1, 300, 100)], at: 0.5)
        try app.send([moved(1, 300, 300)], at: 1)
      }
      try app.send([ended(1, 300, 300)], at: 1)
      return try #require(app.drawing.lines.first?.width)
    }
    #expect(try width(coalesced: true) == width(coalesced: false))
    #expect(
      try width(coalesced: true) == DrawingOptions(widthMode: .bySpeed).width(forSpeed: 400),
      "400 points in 1 s, not the 283 of the chord")
  }
}

/// The app's gestures belong to fingers while palm rejection is on.
@Suite struct PenGestureTests {
  @Test func aPensLineStartsAtOnceWithoutWaitingForTheDoubleTap() throws {
    let app = TouchTrackerApp()
    try app.send([PenDrawingTests.pen(1, .began, 100, 100, force: 1)], at: 0)
    #expect(app.drawView.linesInProgress.count == 1)
    app.drawView.options.penOnlyDraws = false
    try app.send([PenDrawingTests.pen(2, .began, 300, 300, force: 1)], at: 0.1)
    #expect(app.drawView.linesInProgress.count == 1, "off, a pen waits for the double tap as a finger does")
  }

  @Test func aPenTapDrawsADotInsteadOfSelecting() throws {
    let app = try TouchTrackerApp.withOneLine()
    try app.send([PenDrawingTests.pen(1, .began, 200, 104, force: 1)], at: 1)
    try app.send([PenDrawingTests.pen(1, .ended, 200, 104, force: 0)], at: 1.05)
    app.advanceClock(to: 2)
    #expect(app.drawView.selectedLineIndex == nil)
    #expect(app.drawing.lines.count == 2)
  }

  @Test func theRecognizersAllowFingersOnlyWhilePalmRejectionIsOn() {
    let app = TouchTrackerApp()
    let recognizers = app.drawView.gestureRecognizers
    #expect(recognizers.count == 7, "the app's six and the palette's swipe")
    #expect(recognizers.allSatisfy { $0.allowedTouchTypes == [.direct, .indirectPointer] })
    app.drawView.options.penOnlyDraws = false
    #expect(recognizers.allSatisfy { $0.allowedTouchTypes == TouchType.allCases })
  }
}
