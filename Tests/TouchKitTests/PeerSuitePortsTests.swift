import Testing
import TouchKit
import TouchKitTestSupport

/// Cases ported from other UIKit re-implementations' suites (issue 9, item
/// 5), each naming its source. Where a peer's assertion contradicts
/// Apple's documentation, the test follows Apple and says so.
@Suite struct PeerSuitePortsTests {
  /// A recognizer that asks for `.began` at touch-down, with configurable
  /// answers to `canPrevent`/`canBePrevented` (WinObjC's
  /// TestableGestureRecognizer1).
  final class BeginsAtOnce: GestureRecognizer {
    var preventsOthers = true
    var preventable = true
    override func touchesBegan(_ touches: [Touch], with event: Event) { state = .began }
    override func touchesEnded(_ touches: [Touch], with event: Event) {
      if state == .began || state == .changed { state = .ended }
    }
    override func canPrevent(_ prevented: GestureRecognizer) -> Bool { preventsOthers }
    override func canBePrevented(by preventing: GestureRecognizer) -> Bool { preventable }
  }

  /// One that stays possible until its touches lift, then fails
  /// (WinObjC's TestableGestureRecognizer2).
  final class StaysPossible: GestureRecognizer {
    var preventsOthers = true
    var preventable = true
    override func touchesEnded(_ touches: [Touch], with event: Event) { state = .failed }
    override func canPrevent(_ prevented: GestureRecognizer) -> Bool { preventsOthers }
    override func canBePrevented(by preventing: GestureRecognizer) -> Bool { preventable }
  }

  /// WinObjC's TestableGestureDelegate: answers the simultaneity question
  /// with a fixed reply and notes that it was asked.
  final class SimultaneityVote: GestureRecognizerDelegate {
    let reply: Bool
    var asked = false
    init(reply: Bool) { self.reply = reply }
    func gestureRecognizerShouldBegin(_ recognizer: GestureRecognizer) -> Bool { true }
    func gestureRecognizer(_ recognizer: GestureRecognizer, shouldRecognizeSimultaneouslyWith other: GestureRecognizer)
      -> Bool
    {
      asked = true
      return reply
    }
  }

  private func twoRecognizers(possibleFirst: Bool = true) -> (Application, BeginsAtOnce, StaysPossible) {
    let (application, view) = makeApplication()
    let active = BeginsAtOnce()
    let possible = StaysPossible()
    for recognizer in possibleFirst ? [possible, active] as [GestureRecognizer] : [active, possible] {
      view.addGestureRecognizer(recognizer)
    }
    return (application, active, possible)
  }

  /// microsoft/WinObjC `tests/unittests/UIKit/UIGestureCoordinatorTests.mm`,
  /// `UIGestureCoordinator_ActiveGestureAllowPossibleGesture`: the active
  /// recognizer cannot prevent, the other cannot be prevented: both stay.
  @Test func anActiveRecognizerThatCannotPreventLeavesTheOtherPossible() throws {
    let (application, active, possible) = twoRecognizers()
    active.preventsOthers = false
    possible.preventable = false
    try application.send([began(1, 100, 100)], at: 0)
    #expect(active.state == .began)
    #expect(possible.state == .possible)
    try application.send([ended(1, 100, 100)], at: 0.1)
  }

  /// WinObjC `UIGestureCoordinator_ActiveGesturePreventPossibleGesture…`
  /// (both orders of adding): both say yes to prevention and no delegate
  /// votes, so the active recognizer prevents the possible one.
  @Test(arguments: [false, true]) func anActiveRecognizerPreventsThePossibleOne(possibleFirst: Bool) throws {
    let (application, active, possible) = twoRecognizers(possibleFirst: possibleFirst)
    try application.send([began(1, 100, 100)], at: 0)
    #expect(active.state == .began)
    #expect(possible.state == .failed)
    try application.send([ended(1, 100, 100)], at: 0.1)
  }

  /// WinObjC `UIGestureCoordinator_DelegateAllowConcurrentGestures`: one
  /// delegate allowing simultaneous recognition is enough, and it is asked.
  @Test func oneDelegateAllowingSimultaneityKeepsBoth() throws {
    let (application, active, possible) = twoRecognizers()
    let vote = SimultaneityVote(reply: true)
    possible.delegate = vote
    try application.send([began(1, 100, 100)], at: 0)
    #expect(vote.asked)
    #expect(active.state == .began)
    #expect(possible.state == .possible)
    try application.send([ended(1, 100, 100)], at: 0.1)
  }

  /// WinObjC `UIGestureCoordinator_DelegatesForbidConcurrentGestures`: both
  /// delegates say no, so prevention goes ahead.
  @Test func delegatesForbiddingSimultaneityLeaveOne() throws {
    let (application, active, possible) = twoRecognizers()
    let activeVote = SimultaneityVote(reply: false)
    let possibleVote = SimultaneityVote(reply: false)
    active.delegate = activeVote
    possible.delegate = possibleVote
    try application.send([began(1, 100, 100)], at: 0)
    #expect(activeVote.asked || possibleVote.asked)
    #expect(active.state == .began)
    #expect(possible.state == .failed)
    try application.send([ended(1, 100, 100)], at: 0.1)
  }

  /// WinObjC `UIGestureCoordinator_TapGestureMiscFunctions` fails every
  /// other tap recognizer when one recognizes ("failOtherTapGesturesExcept").
  /// Apple's UITapGestureRecognizer documentation contradicts it: a tap
  /// recognizer does not prevent one that needs more taps (here: 1 vs 2
  /// vs 3 taps on one view; the double and triple taps are still deciding
  /// after the single tap recognized, and the triple recognizes last).
  @Test func aTapDoesNotFailTapsThatNeedMoreTapsContraryToWinObjC() throws {
    let (application, view) = makeApplication()
    let recorder = ActionRecorder()
    var taps: [TapGestureRecognizer] = []
    for count in 1...3 {
      let tap = TapGestureRecognizer()
      tap.numberOfTapsRequired = count
      tap.addTarget(recorder, action: Action("taps\(count):"))
      view.addGestureRecognizer(tap)
      taps.append(tap)
    }
    try application.send([began(1, 100, 100)], at: 0)
    try application.send([ended(1, 100, 100)], at: 0.05)
    #expect(recorder.received == ["taps1: ended"])
    #expect(taps[1].state == .possible && taps[2].state == .possible)
    try application.send([began(1, 100, 100)], at: 0.15)
    try application.send([ended(1, 100, 100)], at: 0.2)
    try application.send([began(1, 100, 100)], at: 0.3)
    try application.send([ended(1, 100, 100)], at: 0.35)
    #expect(recorder.received.last == "taps3: ended")
  }

  /// A recognizer told which state to ask for next, on each move.
  final class Scripted: GestureRecognizer {
    var script: [GestureRecognizerState] = []
    override func touchesMoved(_ touches: [Touch], with event: Event) {
      if !script.isEmpty { state = script.removeFirst() }
    }
  }

  /// Chameleon's `UIGestureRecognizer.m` state table (BigZaphod/Chameleon,
  /// `StateTransitions`): possible → recognized (ended) or failed for
  /// discrete gestures; possible → began → changed… → ended or cancelled
  /// for continuous ones, the target told of each; any other request is
  /// ignored. (Chameleon also lets nothing go from began to failed; here a
  /// failed request while recognizing cancels, as DESIGN says, which the
  /// last case checks.)
  @Test(
    arguments: [
      ([.began, .changed, .changed, .ended], ["began", "changed", "changed", "ended"]),
      ([.began, .cancelled], ["began", "cancelled"]),
      ([.ended], ["ended"]),
      ([.failed, .began], []),
      ([.changed, .cancelled, .ended], ["ended"]),
      ([.began, .possible, .changed], ["began", "changed"]),
      ([.began, .began, .ended], ["began", "ended"]),
      ([.began, .failed], ["began", "cancelled"]),
    ] as [([GestureRecognizerState], [String])])
  func onlyTheStateTablesTransitionsHappen(script: [GestureRecognizerState], sent: [String]) throws {
    let (application, view) = makeApplication()
    let scripted = Scripted()
    scripted.script = script
    let recorder = ActionRecorder()
    scripted.addTarget(recorder, action: Action("s:"))
    view.addGestureRecognizer(scripted)
    try application.send([began(1, 100, 100)], at: 0)
    for step in script.indices {
      try application.send([moved(1, 100, 110 + Double(step))], at: 0.01 * Double(step + 1))
    }
    try application.send([ended(1, 100, 120)], at: 1)
    #expect(recorder.received == sent.map { "s: " + $0 })
  }

  final class CountingController: ViewController {
    var hits = 0
    override func loadView() -> View { View(frame: Rect(x: 0, y: 0, width: 400, height: 400)) }
    override func canPerformAction(_ action: Action, withSender sender: AnyObject?) -> Bool {
      action == Action("action:") || super.canPerformAction(action, withSender: sender)
    }
    override func perform(_ action: Action, withSender sender: AnyObject?) {
      if action == Action("action:") { hits += 1 } else { super.perform(action, withSender: sender) }
    }
  }

  /// TextureGroup/Texture `Tests/ASControlNodeTests.mm`,
  /// `testDeeperHierarchyWithoutTarget` (and `testActionWithoutTarget`): a
  /// control's action with no target goes up the responder chain to the
  /// view controller of a view above it, sent by hand or by a real tap.
  @Test func aNilTargetedControlActionReachesTheViewControllerAbove() throws {
    let application = Application(windowSize: Size(width: 400, height: 400))
    let controller = CountingController()
    application.window.rootViewController = controller
    let middle = View(frame: Rect(x: 0, y: 0, width: 300, height: 300))
    let button = Button(title: "Go", frame: Rect(x: 50, y: 50, width: 100, height: 44))
    middle.addSubview(button)
    controller.view.addSubview(middle)
    button.addTarget(nil, action: Action("action:"), for: .touchUpInside)
    button.sendActions(for: .touchUpInside)
    #expect(controller.hits == 1)
    try application.send([began(1, 100, 70)], at: 0)
    try application.send([ended(1, 100, 70)], at: 0.05)
    #expect(controller.hits == 2)
  }

  // MARK: flowkey/UIKit-cross-platform `UIKitTests/Gestures/UIPanGestureRecognizerTests.swift`

  private func panSetUp() -> (Application, View, PanGestureRecognizer, ActionRecorder) {
    let (application, root) = makeApplication()
    let view = View(frame: Rect(x: 50, y: 50, width: 100, height: 100))
    root.addSubview(view)
    let pan = PanGestureRecognizer()
    view.addGestureRecognizer(pan)
    let recorder = ActionRecorder()
    pan.addTarget(recorder, action: Action("pan:"))
    return (application, view, pan, recorder)
  }

  /// `testPanGestureRecognizerStateEnded`: flowkey's pan is `.began` at
  /// touch-down; Apple's UIPanGestureRecognizer page says "The gesture
  /// begins when the minimum number of fingers allowed has moved enough to
  /// be considered a pan", so here it begins at the first move past 10 pt.
  /// Then, as flowkey asserts: changed, ended, and back to possible.
  @Test func aPanBeginsOnMovingChangesEndsAndResets() throws {
    let (application, _, pan, recorder) = panSetUp()
    try application.send([began(1, 92, 62)], at: 0)
    #expect(pan.state == .possible)
    try application.send([moved(1, 84, 95)], at: 0.1)
    #expect(pan.state == .began)
    try application.send([moved(1, 80, 99)], at: 0.2)
    #expect(pan.state == .changed)
    try application.send([ended(1, 80, 99)], at: 0.3)
    #expect(recorder.received == ["pan: began", "pan: changed", "pan: ended"])
    #expect(pan.state == .possible)
  }

  /// `testPanGestureRecognizerStateCancelled`.
  @Test func aCancelledPanIsCancelledThenResets() throws {
    let (application, _, pan, recorder) = panSetUp()
    try application.send([began(1, 62, 92)], at: 0)
    try application.send([moved(1, 73, 71)], at: 0.1)
    try application.send([cancelled(1, 73, 71)], at: 0.2)
    #expect(recorder.received == ["pan: began", "pan: cancelled"])
    #expect(pan.state == .possible)
  }

  /// `testVelocity`: 50 pt in 1 s is 50 pt/s.
  @Test func aPansVelocityIsPointsPerSecond() throws {
    let (application, view, pan, recorder) = panSetUp()
    try application.send([began(1, 60, 60)], at: 0)
    try application.send([moved(1, 110, 60)], at: 1)
    #expect(abs(pan.velocity(in: view).x - 50) < 0.001)
    try application.send([ended(1, 110, 60)], at: 1.1)
    // The recorder is the pan's target: kept alive (targets are not retained) and heard.
    #expect(recorder.received.first == "pan: began")
  }

  /// `testSetTranslation` and `testTranslateAndReset`: the translation is
  /// the movement, a set translation reads back, and movement after a
  /// reset to zero counts from there.
  @Test func aPansTranslationCanBeSetAndCountsOnFromThere() throws {
    let (application, view, pan, recorder) = panSetUp()
    try application.send([began(1, 60, 60)], at: 0)
    #expect(pan.translation(in: view) == .zero)
    try application.send([moved(1, 70, 70)], at: 0.1)
    #expect(pan.translation(in: view) == Point(x: 10, y: 10))
    pan.setTranslation(Point(x: 12, y: 13), in: view)
    #expect(pan.translation(in: view) == Point(x: 12, y: 13))
    pan.setTranslation(.zero, in: view)
    try application.send([moved(1, 80, 80)], at: 0.2)
    #expect(pan.translation(in: view) == Point(x: 10, y: 10))
    try application.send([ended(1, 80, 80)], at: 0.3)
    #expect(recorder.received.last == "pan: ended")
  }

  // MARK: PureSwift/Cacao `Tests/CacaoTests/UIViewTests.swift`

  /// Cacao's `loadTestView1`: four nested views, each 10 or 20 pt in.
  private func nestedViews() -> (View, View, View, View) {
    let root = View(frame: Rect(x: 0, y: 0, width: 100, height: 100))
    let second = View(frame: Rect(x: 10, y: 10, width: 80, height: 80))
    let third = View(frame: Rect(x: 10, y: 10, width: 60, height: 60))
    let fourth = View(frame: Rect(x: 20, y: 20, width: 20, height: 20))
    root.addSubview(second)
    second.addSubview(third)
    third.addSubview(fourth)
    return (root, second, third, fourth)
  }

  /// Cacao `testHitTest`.
  @Test func theDeepestViewUnderAPointIsHit() {
    let (root, second, third, fourth) = nestedViews()
    #expect(root.hitTest(Point(x: 5, y: 5)) === root)
    #expect(root.hitTest(second.frame.origin) === second)
    #expect(root.hitTest(Point(x: 15, y: 15)) === second)
    #expect(root.hitTest(Point(x: 20, y: 20)) === third)
    #expect(root.hitTest(Point(x: 25, y: 25)) === third)
    #expect(root.hitTest(Point(x: 40, y: 40)) === fourth)
    #expect(root.hitTest(Point(x: 45, y: 45)) === fourth)
  }

  /// Cacao `testConvertToView` ("this is what UIKit also gives us").
  @Test func pointsConvertDownNestedViews() {
    let (root, second, third, fourth) = nestedViews()
    #expect(root.convert(Point(x: 10, y: 10), to: root) == Point(x: 10, y: 10))
    #expect(root.convert(Point(x: 15, y: 15), to: second) == Point(x: 5, y: 5))
    #expect(root.convert(Point(x: 25, y: 25), to: third) == Point(x: 5, y: 5))
    #expect(root.convert(Point(x: 40, y: 40), to: fourth) == .zero)
    #expect(root.convert(second.frame.origin, to: second) == .zero)
    #expect(root.convert(third.frame.origin, to: third) == Point(x: -10, y: -10))
    #expect(root.convert(fourth.frame.origin, to: fourth) == Point(x: -20, y: -20))
  }
}
