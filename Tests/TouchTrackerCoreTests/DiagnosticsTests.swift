import Testing
import TouchKitTestSupport
import TouchTrackerCore

/// The diagnostic records (issue 11): what the inspector shows and
/// `touchtracker replay --inspect` prints, for the book's gestures.
@Suite struct DiagnosticsTests {
  /// Every record of `app`, as the log's text, from now on.
  final class Listener {
    var lines: [String] = []
    var times: [Double] = []
    init(_ app: TouchTrackerApp) {
      // Strong: the app outlives the listener and reports while it goes.
      app.application.observer = { [self] time, record in
        self.lines.append(record.text.trimmingLeadingSpaces)
        self.times.append(time)
      }
    }

    /// Whether `expected` appear in this order (other records may come between).
    func contains(inOrder expected: [String]) -> Bool {
      var next = 0
      for line in lines where next < expected.count && line == expected[next] { next += 1 }
      return next == expected.count
    }

    func time(of line: String) -> Double? {
      lines.firstIndex(of: line).map { times[$0] }
    }
  }

  @Test func theRecognizersCarryTheBooksNames() {
    let app = TouchTrackerApp()
    // The controller puts its swipe on the same view, after DrawView's own five.
    let names = app.drawView.gestureRecognizers.map { $0.name ?? "" }
    #expect(
      names == ["double tap", "tap", "two-finger tap", "long press", "pan", "two-finger pan", "three-finger swipe"])
  }

  /// The book's double tap: both taps are held back from the view, the
  /// single tap waits for the double to fail, and fails when it recognizes.
  @Test func aDoubleTapMakesTheWaitingSingleTapFail() throws {
    let app = TouchTrackerApp()
    let listener = Listener(app)
    try app.tap(at: Point(x: 100, y: 100), id: 1, time: 0)
    try app.tap(at: Point(x: 102, y: 100), id: 2, time: 0.15)
    app.settle()
    let lines = listener.lines
    #expect(lines.first == "touch 1 hit DrawView (Window > DrawView)")
    #expect(
      listener.contains(inOrder: [
        "touch 1 began held by double tap",
        "tap: waits for double tap to fail",
        "touch 2 began held by double tap",
        "double tap: possible -> ended (touches matched)",
        "touch 2 began dropped",
        "tap: possible -> failed (required double tap to fail; it recognized)",
        "doubleTap(_:) from double tap: asked DrawView, DrawView performed it",
      ]), "\(lines)")
    // The view never hears of the taps, nor does the single tap ever recognize.
    #expect(!lines.contains { $0.hasPrefix("touches") })
    #expect(!lines.contains("tap: possible -> ended (double tap failed)"))
  }

  /// A single tap: the double tap's interval runs out ("too slow"), then the
  /// single tap goes ahead and the held touch is dropped (the tap took it).
  @Test func aSingleTapWaitsForTheDoubleTapToFail() throws {
    let app = TouchTrackerApp()
    let listener = Listener(app)
    try app.tap(at: Point(x: 100, y: 100), id: 1, time: 0)
    app.advanceClock(to: 1)
    #expect(
      listener.contains(inOrder: [
        "tap: waits for double tap to fail",
        "double tap: possible -> failed (too slow)",
        "tap: possible -> ended (double tap failed)",
        "tap(_:) from tap: asked DrawView, DrawView performed it",
      ]), "\(listener.lines)")
    // The interval is 0.3 s from the lift at 0.05.
    #expect(listener.time(of: "double tap: possible -> failed (too slow)") == 0.35)
  }

  /// A long press on a line begins after 0.5 s; the pan then moves the line.
  @Test func aLongPressBeginsAfterHalfASecondAndThePanMovesTheLine() throws {
    let app = TouchTrackerApp()
    try app.drawLine(from: Point(x: 100, y: 100), to: Point(x: 300, y: 100), at: 0)
    let listener = Listener(app)
    try app.send([began(5, 200, 100)], at: 1)
    app.advanceClock(to: 1.6)
    try app.send([moved(5, 200, 130)], at: 1.7)
    try app.send([moved(5, 200, 160)], at: 1.8)
    try app.send([ended(5, 200, 160)], at: 1.9)
    #expect(
      listener.contains(inOrder: [
        "long press: possible -> began (held long enough)",
        "longPress(_:) from long press: asked DrawView, DrawView performed it",
        "long press: began -> changed",
        "pan: possible -> began (touches matched)",
        "moveLine(_:) from pan: asked DrawView, DrawView performed it",
        "long press: changed -> ended",
      ]), "\(listener.lines)")
    #expect(listener.time(of: "long press: possible -> began (held long enough)") == 1.5)
    #expect(app.drawing.lines.first?.begin == Point(x: 100, y: 160))
  }

  /// Three fingers swiping up: the swipe holds their touches back (so they
  /// never flash as red lines), recognizes, and drops them; the view never
  /// hears of them.
  @Test func aThreeFingerSwipeHoldsItsTouchesBackFromTheView() throws {
    let app = TouchTrackerApp()
    let listener = Listener(app)
    try app.send([began(1, 300, 400), began(2, 350, 400), began(3, 400, 400)], at: 0)
    try app.send([moved(1, 300, 370), moved(2, 350, 370), moved(3, 400, 370)], at: 0.05)
    try app.send([moved(1, 300, 330), moved(2, 350, 330), moved(3, 400, 330)], at: 0.1)
    #expect(
      listener.contains(inOrder: [
        "double tap: possible -> failed (wrong number of touches)",
        "touch 1 began held by three-finger swipe",
        "touch 2 began held by three-finger swipe",
        "touch 3 began held by three-finger swipe",
        "three-finger swipe: possible -> ended (touches matched)",
        "touch 1 began dropped",
        "touch 2 began dropped",
        "touch 3 began dropped",
        "showPalette(_:) from three-finger swipe: asked DrawViewController, DrawViewController performed it",
      ]), "\(listener.lines)")
    #expect(!listener.lines.contains { $0.hasPrefix("touches") }, "\(listener.lines)")
    #expect(app.controller.isPaletteVisible)
  }

  /// A tap on "Delete" sends a nil-targeted action: the inspector shows the
  /// chain it walked, from the first responder to who performed it.
  @Test func aNilTargetedActionShowsTheChainItWalked() throws {
    let app = TouchTrackerApp()
    try app.drawLine(from: Point(x: 100, y: 100), to: Point(x: 300, y: 100), at: 0)
    let listener = Listener(app)
    try app.tap(at: Point(x: 200, y: 102), time: 1)
    app.advanceClock(to: 2)
    try app.tap(title: "Delete", at: 2)
    app.settle()
    #expect(
      listener.contains(inOrder: [
        "delete(_:) from Button 'Delete': asked MenuView, MenuView performed it",
        "delete(_:) from Button 'Delete': asked DrawView, DrawView performed it",
      ]), "\(listener.lines)")
    #expect(app.drawing.lines.isEmpty)
    app.drawView.resignFirstResponder()
    #expect(listener.lines.last == "first responder: DrawView -> none")
    // With no first responder the walk starts at the sender, and goes on to its view controller.
    #expect(app.application.sendAction(Action("showPalette:"), to: nil, from: app.drawView))
    #expect(
      listener.contains(inOrder: [
        "showPalette(_:) from DrawView: asked DrawView, DrawViewController, DrawViewController performed it"
      ]), "\(listener.lines)")
  }

  @Test func recordsAreJSONWithTheClocksTime() throws {
    let app = TouchTrackerApp()
    var json: [String] = []
    app.application.observer = { time, record in json.append(String(decoding: record.json(time: time), as: UTF8.self)) }
    try app.send([began(1, 10, 20)], at: 0.25)
    #expect(
      json.first
        == #"{"t":0.25,"kind":"hit","touch":{"id":1,"phase":"began","x":10,"y":20,"tapCount":1},"#
        + #""path":["Window","DrawView"],"ignored":false}"#)
    #expect(json.contains(#"{"t":0.25,"kind":"held","touch":1,"phase":"began","by":"double tap"}"#))
  }

  /// With nobody listening nothing is built: the records are off by default.
  @Test func theObserverIsOffByDefault() {
    #expect(TouchTrackerApp().application.observer == nil)
  }
}

extension String {
  fileprivate var trimmingLeadingSpaces: String { String(drop { $0 == " " }) }
}
