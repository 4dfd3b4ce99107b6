import Testing
import TouchKit
import TouchKitTestSupport

/// A host that hears of each finger on its own feeds the application through
/// `TouchFeed`: a frame's fingers are one event, and nothing it hands over traps.
@Suite struct TouchFeedTests {
  @Test func fingersReportedInOneFrameArriveAsOneEvent() {
    let (application, view) = makeApplication()
    var feed = TouchFeed()
    #expect(feed.report(id: 1, phaseCode: 0, location: Point(x: 10, y: 10), time: 1, to: application) == .queued)
    #expect(feed.report(id: 2, phaseCode: 0, location: Point(x: 50, y: 10), time: 1.001, to: application) == .queued)
    #expect(view.messages.isEmpty, "nothing is delivered before the frame ends")
    #expect(feed.commit(at: 1.016, to: application) == .queued)
    #expect(view.messages == ["began 1,2"])
    #expect(feed.touchesDown == 2)
  }

  @Test func aSecondReportOfOneFingerClosesTheEventBeforeIt() {
    let (application, view) = makeApplication()
    var feed = TouchFeed()
    feed.report(id: 1, phaseCode: 0, location: Point(x: 10, y: 10), time: 1, to: application)
    feed.report(id: 1, phaseCode: 3, location: Point(x: 10, y: 10), time: 1.005, to: application)
    feed.commit(at: 1.016, to: application)
    #expect(view.messages == ["began 1", "ended 1"])
    #expect(feed.touchesDown == 0)
  }

  @Test func aFingerThatBeginsAgainWithoutEndingIsCancelledFirst() {
    let (application, view) = makeApplication()
    var feed = TouchFeed()
    feed.report(id: 4, phaseCode: 0, location: Point(x: 10, y: 10), time: 1, to: application)
    feed.commit(at: 1, to: application)
    feed.report(id: 4, phaseCode: 0, location: Point(x: 90, y: 90), time: 2, to: application)
    feed.commit(at: 2, to: application)
    #expect(view.messages == ["began 4", "cancelled 4", "began 4"])
    #expect(feed.lastLocation(ofTouch: 4) == Point(x: 90, y: 90))
  }

  @Test func badReportsAreIgnoredWithTheirReason() {
    let (application, view) = makeApplication()
    var feed = TouchFeed()
    #expect(feed.report(id: 1, phaseCode: 9, location: Point(x: 1, y: 1), time: 1, to: application) == .unknownPhase)
    #expect(feed.lastError == "Unknown phase 9 for touch 1")
    #expect(feed.report(id: 1, phaseCode: 0, location: Point(x: .nan, y: 1), time: 1, to: application) == .notFinite)
    #expect(
      feed.report(id: 1, phaseCode: 0, location: Point(x: 1, y: 1), time: .infinity, to: application) == .notFinite)
    #expect(feed.report(id: 2, phaseCode: 1, location: Point(x: 1, y: 1), time: 1, to: application) == .notDown)
    #expect(feed.lastError == "Touch 2 moved before it began")
    feed.commit(at: 1, to: application)
    #expect(view.messages.isEmpty)
  }

  @Test func timeNeverGoesBackAndTheHookHearsEachEvent() {
    let (application, _) = makeApplication()
    var feed = TouchFeed()
    var delivered: [(count: Int, time: Double)] = []
    feed.onDeliver = { inputs, time in delivered.append((inputs.count, time)) }
    feed.report(id: 1, phaseCode: 0, location: Point(x: 1, y: 1), time: 5, to: application)
    feed.commit(at: 3, to: application)
    feed.report(id: 1, phaseCode: 3, location: Point(x: 1, y: 1), time: 4, to: application)
    feed.commit(at: .nan, to: application)
    #expect(delivered.map(\.count) == [1, 1])
    #expect(delivered.map(\.time) == [5, 5])
    #expect(application.clock.now == 5)
  }
}
