import Testing
import TouchKitTestSupport

@testable import TouchKit

/// What modern hardware reports of a touch (issue 9, item 3): its type,
/// force and angles, and the samples between events, as UIKit's `UITouch`
/// and `UIEvent` give them (Apple's documentation of `UITouch.type`,
/// `force`, `maximumPossibleForce`, `altitudeAngle`, `azimuthAngle(in:)`,
/// `UIEvent.coalescedTouches(for:)` and `predictedTouches(for:)`).
@Suite struct TouchHardwareTests {
  /// A view that keeps every touch and event it gets.
  final class KeepingView: View {
    var touches: [Touch] = []
    var events: [Event] = []
    override func touchesBegan(_ touches: [Touch], with event: Event) { keep(touches, event) }
    override func touchesMoved(_ touches: [Touch], with event: Event) { keep(touches, event) }
    override func touchesEnded(_ touches: [Touch], with event: Event) { keep(touches, event) }
    override func touchesCancelled(_ touches: [Touch], with event: Event) { keep(touches, event) }
    private func keep(_ touches: [Touch], _ event: Event) {
      self.touches.append(contentsOf: touches)
      events.append(event)
    }
  }

  func makeApplication() -> (Application, KeepingView) {
    let application = Application(windowSize: Size(width: 400, height: 400))
    let view = KeepingView(frame: Rect(x: 0, y: 0, width: 400, height: 400))
    view.isMultipleTouchEnabled = true
    application.window.addSubview(view)
    return (application, view)
  }

  static let pen = TouchHardware(force: 1.5, maximumPossibleForce: 2, altitudeAngle: 0.5, azimuth: 1)

  @Test func aFingerIsDirectWithNoForceAndStandsPerpendicular() throws {
    let (application, view) = makeApplication()
    try application.send([began(1, 10, 10)], at: 0)
    let touch = try #require(view.touches.first)
    #expect(touch.type == .direct)
    #expect(touch.force == 0)
    #expect(touch.maximumPossibleForce == 0)
    #expect(touch.altitudeAngle == Double.pi / 2)
    #expect(touch.azimuthAngle(in: nil) == 0)
  }

  @Test func aPenCarriesItsTypeForceAndAnglesAndKeepsItsTypeForLife() throws {
    let (application, view) = makeApplication()
    try application.send(
      [TouchInput(id: 1, phase: .began, location: Point(x: 10, y: 10), type: .pencil, hardware: Self.pen)], at: 0)
    var pressed = Self.pen
    pressed.force = 0.25
    // A move that names another type does not change what made the touch.
    try application.send([TouchInput(id: 1, phase: .moved, location: Point(x: 20, y: 10), hardware: pressed)], at: 0.1)
    #expect(view.touches.map(\.type) == [.pencil, .pencil])
    #expect(view.touches.map(\.force) == [1.5, 0.25])
    #expect(view.touches[1].maximumPossibleForce == 2)
    #expect(view.touches[1].altitudeAngle == 0.5)
    #expect(view.touches[1].azimuthAngle(in: nil) == 1)
  }

  @Test func aCancellationKeepsTheLastMeasurement() throws {
    let (application, view) = makeApplication()
    try application.send(
      [TouchInput(id: 1, phase: .began, location: Point(x: 10, y: 10), type: .pencil, hardware: Self.pen)], at: 0)
    application.cancelAllTouches(at: 1)
    #expect(view.touches.last?.phase == .cancelled)
    #expect(view.touches.last?.force == 1.5)
  }

  @Test func theAzimuthInAViewFollowsTheConversionFromTheWindow() throws {
    let (application, view) = makeApplication()
    try application.send(
      [TouchInput(id: 1, phase: .began, location: Point(x: 10, y: 10), type: .pencil, hardware: Self.pen)], at: 0)
    let touch = try #require(view.touches.first)
    // An offset view converts by a translation: the direction is the same.
    let offset = View(frame: Rect(x: 50, y: 70, width: 100, height: 100))
    application.window.addSubview(offset)
    #expect(abs(touch.azimuthAngle(in: offset) - 1) < 1e-12)
    let vector = touch.azimuthUnitVector(in: offset)
    #expect(abs(vector.x - Trigonometry.cos(1)) < 1e-12)
    #expect(abs(vector.y - Trigonometry.sin(1)) < 1e-12)
  }

  /// The azimuth in a view is in 0..<2π, as in the window (it was atan2's
  /// -π...π, so 3π/2 read -π/2), and turns with the view: a view rotated
  /// a quarter turn reads a quarter turn less.
  @Test func theAzimuthInAViewStaysInOneTurnAndTurnsWithTheView() throws {
    let (application, view) = makeApplication()
    let hardware = TouchHardware(force: 1, maximumPossibleForce: 2, altitudeAngle: 0.5, azimuth: 3 * Double.pi / 2)
    try application.send(
      [TouchInput(id: 1, phase: .began, location: Point(x: 10, y: 10), type: .pencil, hardware: hardware)], at: 0)
    let touch = try #require(view.touches.first)
    #expect(abs(touch.azimuthAngle(in: view) - 3 * Double.pi / 2) < 1e-12)
    let turned = View(frame: Rect(x: 0, y: 0, width: 100, height: 100))
    turned.transform = AffineTransform(rotationAngle: Double.pi / 2)
    view.addSubview(turned)
    #expect(abs(touch.azimuthAngle(in: turned) - Double.pi) < 1e-9)
    try application.send([TouchInput(id: 1, phase: .ended, location: Point(x: 10, y: 10), type: .pencil)], at: 0.1)
  }

  @Test func coalescedTouchesEndWithTheEventsOwnSnapshot() throws {
    let (application, view) = makeApplication()
    try application.send([began(1, 0, 0)], at: 0)
    let samples = [
      TouchSample(location: Point(x: 5, y: 0), timestamp: 0.01, hardware: Self.pen),
      TouchSample(location: Point(x: 10, y: 0), timestamp: 0.02),
    ]
    try application.send([TouchInput(id: 1, phase: .moved, location: Point(x: 15, y: 0), coalesced: samples)], at: 0.03)
    let touch = try #require(view.touches.last)
    let event = try #require(view.events.last)
    let coalesced = event.coalescedTouches(for: touch)
    #expect(coalesced.map(\.locationInWindow) == [Point(x: 5, y: 0), Point(x: 10, y: 0), Point(x: 15, y: 0)])
    #expect(coalesced.map(\.previousLocationInWindow) == [Point(x: 0, y: 0), Point(x: 5, y: 0), Point(x: 10, y: 0)])
    #expect(coalesced.map(\.timestamp) == [0.01, 0.02, 0.03])
    #expect(coalesced.map(\.force) == [1.5, 0, 0])
    #expect(coalesced.allSatisfy { $0.identity == touch.identity && $0.phase == .moved })
  }

  @Test func withoutSamplesTheCoalescedTouchesAreTheTouchItself() throws {
    let (application, view) = makeApplication()
    try application.send([began(1, 0, 0)], at: 0)
    try application.send([moved(1, 8, 0)], at: 0.1)
    let touch = try #require(view.touches.last)
    let event = try #require(view.events.last)
    let coalesced = event.coalescedTouches(for: touch)
    #expect(coalesced.count == 1)
    #expect(coalesced.first?.locationInWindow == Point(x: 8, y: 0))
    #expect(coalesced.first?.previousLocationInWindow == Point(x: 0, y: 0))
    #expect(event.predictedTouches(for: touch).isEmpty)
  }

  @Test func predictedTouchesComeFromTheHostAndMayBeEmpty() throws {
    let (application, view) = makeApplication()
    try application.send([began(1, 0, 0), began(2, 100, 100)], at: 0)
    let ahead = [
      TouchSample(location: Point(x: 20, y: 0), timestamp: 0.12),
      TouchSample(location: Point(x: 30, y: 0), timestamp: 0.14),
    ]
    try application.send([TouchInput(id: 1, phase: .moved, location: Point(x: 10, y: 0), predicted: ahead)], at: 0.1)
    let event = try #require(view.events.last)
    let touch = try #require(view.touches.last)
    let predicted = event.predictedTouches(for: touch)
    #expect(predicted.map(\.locationInWindow) == [Point(x: 20, y: 0), Point(x: 30, y: 0)])
    #expect(predicted.map(\.previousLocationInWindow) == [Point(x: 10, y: 0), Point(x: 20, y: 0)])
    // Finger 2 did not move in that event: nothing coalesced or predicted for it.
    let other = try #require(event.allTouches.first { $0.hostID == 2 })
    #expect(event.predictedTouches(for: other).isEmpty)
    #expect(event.coalescedTouches(for: other).count == 1)
  }

  @Test func samplesBelongToTheirEventOnly() throws {
    let (application, view) = makeApplication()
    try application.send([began(1, 0, 0), began(2, 100, 100)], at: 0)
    let sample = TouchSample(location: Point(x: 5, y: 0), timestamp: 0.05)
    try application.send(
      [TouchInput(id: 1, phase: .moved, location: Point(x: 10, y: 0), coalesced: [sample], predicted: [sample])],
      at: 0.1)
    try application.send([moved(2, 110, 100)], at: 0.2)
    let event = try #require(view.events.last)
    let one = try #require(event.allTouches.first { $0.hostID == 1 })
    #expect(event.coalescedTouches(for: one).count == 1)
    #expect(event.predictedTouches(for: one).isEmpty)
  }

  @Test func aTouchNotInTheEventHasNoCoalescedTouches() throws {
    let (application, view) = makeApplication()
    try application.send([began(1, 0, 0)], at: 0)
    let first = try #require(view.touches.first)
    try application.send([ended(1, 0, 0)], at: 0.1)
    try application.send([began(2, 0, 0)], at: 0.2)
    let event = try #require(view.events.last)
    #expect(event.coalescedTouches(for: first).isEmpty)
    #expect(event.predictedTouches(for: first).isEmpty)
  }

  @Test func nonFiniteMeasurementsAreRefusedByName() throws {
    let (application, _) = makeApplication()
    var hardware = Self.pen
    hardware.force = .nan
    #expect(throws: TouchInputError.nonFiniteMeasurement(id: 1)) {
      try application.send([TouchInput(id: 1, phase: .began, location: .zero, hardware: hardware)], at: 0)
    }
    #expect(TouchInputError.nonFiniteMeasurement(id: 1).message == "Touch 1 has a non-finite force, angle or sample")
    let sample = TouchSample(location: Point(x: .infinity, y: 0), timestamp: 0)
    #expect(throws: TouchInputError.nonFiniteMeasurement(id: 2)) {
      try application.send([TouchInput(id: 2, phase: .began, location: .zero, coalesced: [sample])], at: 0)
    }
    #expect(application.activeTouchCount == 0)
  }

  @Test func theTypesNamesAreUIKitsWithoutThePrefix() {
    #expect(TouchType.allCases.map(\.name) == ["direct", "pencil", "indirectPointer"])
    for type in TouchType.allCases { #expect(TouchType(name: type.name) == type) }
    #expect(TouchType(name: "stylus") == nil)
  }
}

/// UIKit's `allowedTouchTypes`: a recognizer never sees a touch of a type it does not allow.
@Suite struct AllowedTouchTypesTests {
  @Test func aRecognizerAllowingOnlyPensIgnoresFingers() throws {
    let (application, view) = makeApplication()
    let tap = TapGestureRecognizer()
    tap.allowedTouchTypes = [.pencil]
    let recorder = ActionRecorder()
    tap.addTarget(recorder, action: Action("tapped"))
    view.addGestureRecognizer(tap)
    try application.send([began(1, 10, 10)], at: 0)
    try application.send([ended(1, 10, 10)], at: 0.05)
    #expect(recorder.received.isEmpty)
    #expect(tap.touches.isEmpty)
    try application.send([TouchInput(id: 2, phase: .began, location: Point(x: 10, y: 10), type: .pencil)], at: 1)
    try application.send([TouchInput(id: 2, phase: .ended, location: Point(x: 10, y: 10), type: .pencil)], at: 1.05)
    #expect(recorder.received == ["tapped ended"])
    #expect(TapGestureRecognizer().allowedTouchTypes == TouchType.allCases)
  }
}
