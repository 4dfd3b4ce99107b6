import Testing
import TouchKit
import TouchKitTestSupport

@Suite struct TouchDeliveryTests {
  @Test func eachMessageCarriesOnlyTheTouchesThatChangedInThatPhase() throws {
    let (application, view) = makeApplication()
    try application.send([began(1, 10, 10)], at: 0)
    try application.send([began(2, 50, 50), moved(1, 20, 10)], at: 0.1)
    try application.send([ended(1, 20, 10)], at: 0.2)
    try application.send([ended(2, 50, 50)], at: 0.3)
    #expect(view.messages == ["began 1", "began 2", "moved 1", "ended 1", "ended 2"])
  }

  @Test func touchesBeginningTogetherArriveInOneMessage() throws {
    let (application, view) = makeApplication()
    try application.send([began(1, 10, 10), began(2, 90, 90), began(3, 150, 10)], at: 0)
    try application.send([ended(1, 10, 10), ended(2, 90, 90), ended(3, 150, 10)], at: 0.1)
    #expect(view.messages == ["began 1,2,3", "ended 1,2,3"])
  }

  @Test func aTouchMovingOutsideItsViewStaysWithThatView() throws {
    let application = Application(windowSize: Size(width: 400, height: 400))
    let left = RecordingView(frame: Rect(x: 0, y: 0, width: 200, height: 400))
    let right = RecordingView(frame: Rect(x: 200, y: 0, width: 200, height: 400))
    application.window.addSubview(left)
    application.window.addSubview(right)
    try application.send([began(1, 100, 100)], at: 0)
    try application.send([moved(1, 300, 100)], at: 0.1)
    try application.send([ended(1, 350, 100)], at: 0.2)
    #expect(left.messages == ["began 1", "moved 1", "ended 1"])
    #expect(right.messages.isEmpty)
    // In the owning view's coordinates, the finger ended outside it.
    #expect(left.locations["ended"] == [Point(x: 350, y: 100)])
  }

  @Test func aViewWithoutMultipleTouchGetsOnlyItsFirstTouch() throws {
    let (application, view) = makeApplication()
    view.isMultipleTouchEnabled = false
    try application.send([began(1, 10, 10)], at: 0)
    try application.send([began(2, 50, 50)], at: 0.1)
    try application.send([moved(2, 60, 60), moved(1, 20, 20)], at: 0.2)
    try application.send([ended(1, 20, 20)], at: 0.3)
    try application.send([ended(2, 60, 60)], at: 0.4)
    // After the first touch ends, a new one is accepted again.
    try application.send([began(3, 70, 70)], at: 0.5)
    #expect(view.messages == ["began 1", "moved 1", "ended 1", "began 3"])
  }

  @Test func aViewWithoutMultipleTouchTakesOnlyTheFirstOfTwoTouchesLandingTogether() throws {
    let (application, view) = makeApplication()
    view.isMultipleTouchEnabled = false
    try application.send([began(1, 10, 10), began(2, 50, 50)], at: 0)
    #expect(view.messages == ["began 1"])
  }

  @Test func cancellingOneOfTwoFingersLeavesTheOtherAlone() throws {
    let (application, view) = makeApplication()
    try application.send([began(1, 10, 10), began(2, 50, 50)], at: 0)
    try application.send([cancelled(1, 10, 10), moved(2, 80, 80)], at: 0.1)
    try application.send([ended(2, 80, 80)], at: 0.2)
    #expect(view.messages == ["began 1,2", "moved 2", "cancelled 1", "ended 2"])
  }

  @Test func hitTestingSkipsHiddenAndNonInteractiveViews() throws {
    let (application, back) = makeApplication()
    let hidden = RecordingView(frame: Rect(x: 0, y: 0, width: 100, height: 100))
    hidden.isHidden = true
    let inert = RecordingView(frame: Rect(x: 100, y: 0, width: 100, height: 100))
    inert.isUserInteractionEnabled = false
    application.window.addSubview(hidden)
    application.window.addSubview(inert)
    try application.send([began(1, 50, 50), began(2, 150, 50)], at: 0)
    #expect(hidden.messages.isEmpty)
    #expect(inert.messages.isEmpty)
    #expect(back.messages == ["began 1,2"])
  }

  @Test func tapCountCountsQuickTapsAtOnePlace() throws {
    final class TapCountView: View {
      var counts: [Int] = []
      override func touchesBegan(_ touches: [Touch], with event: Event) { counts += touches.map { $0.tapCount } }
    }
    let application = Application(windowSize: Size(width: 400, height: 400))
    let view = TapCountView(frame: application.window.bounds)
    application.window.addSubview(view)
    for (index, (time, x)) in [(0.0, 100.0), (0.2, 102.0), (0.4, 101.0), (2.0, 100.0), (2.2, 300.0)].enumerated() {
      try application.send([began(index, x, 100)], at: time)
      try application.send([ended(index, x, 100)], at: time + 0.05)
    }
    #expect(view.counts == [1, 2, 3, 1, 1])
  }

  @Test(arguments: [
    ([moved(1, 0, 0)], TouchInputError.notBegan(id: 1, phase: .moved), "Touch 1 moved before it began"),
    ([began(1, .nan, 0)], .nonFiniteLocation(id: 1), "Touch 1 has a non-finite location"),
    ([began(1, 0, 0), began(1, 5, 5)], .duplicate(id: 1), "Touch 1 appears twice in one event"),
  ])
  func badInputIsRefusedWithoutChangingAnything(inputs: [TouchInput], error: TouchInputError, message: String) throws {
    let (application, view) = makeApplication()
    #expect(throws: error) { try application.send(inputs, at: 1) }
    #expect(error.message == message)
    #expect(view.messages.isEmpty)
    #expect(application.activeTouchCount == 0)
  }

  @Test func timeGoingBackIsRefused() throws {
    let (application, _) = makeApplication()
    try application.send([began(1, 0, 0)], at: 2)
    #expect(throws: TouchInputError.timeWentBack(from: 2, to: 1)) { try application.send([ended(1, 0, 0)], at: 1) }
    #expect(TouchInputError.timeWentBack(from: 2, to: 1).message == "Time went back from 2 to 1")
  }

  @Test func anIdMayBeginAgainAfterItsTouchEnded() throws {
    let (application, view) = makeApplication()
    try application.send([began(1, 0, 0)], at: 0)
    try application.send([ended(1, 0, 0)], at: 0.1)
    try application.send([began(1, 30, 30)], at: 0.2)
    #expect(view.messages == ["began 1", "ended 1", "began 1"])
  }
}
