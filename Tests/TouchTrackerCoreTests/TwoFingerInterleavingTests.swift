import Testing
import TouchTrackerCore

/// Every ordering of two fingers' began, moved and ended, alone or together in
/// one event, with one clock step past the double-tap and long-press
/// intervals anywhere among them, against DrawView's real recognizers (tap,
/// double tap, long press, pan, swipe), over a line the taps can select.
///
/// Whatever the recognizers decide, UIKit's promise to the view holds: a
/// touch the view saw begin gets exactly one end or cancellation and nothing
/// after it, and a touch it never saw begin is never mentioned; when the
/// fingers are up and the clock settles, nothing is left in progress.
@Suite struct TwoFingerInterleavingTests {
  /// What one finger does between its began and its ended.
  enum Gesture: CaseIterable { case tap, drag }

  /// One event of a scenario: the fingers whose next step happens in it, or the clock step.
  enum Step: Equatable { case fingers([Int]), clockStep }

  /// Every sequence of events that takes both fingers through began, moved
  /// and ended in order (each event moves one finger or both), with the clock
  /// step inserted at every position.
  static let scenarios: [[Step]] = {
    var orders: [[Step]] = []
    func extend(_ order: [Step], _ done: [Int]) {
      if done == [3, 3] {
        orders.append(order)
        return
      }
      if done[0] < 3 { extend(order + [.fingers([1])], [done[0] + 1, done[1]]) }
      if done[1] < 3 { extend(order + [.fingers([2])], [done[0], done[1] + 1]) }
      if done[0] < 3 && done[1] < 3 { extend(order + [.fingers([1, 2])], [done[0] + 1, done[1] + 1]) }
    }
    extend([], [0, 0])
    return orders.flatMap { order in
      (0...order.count).map { position in
        var withStep = order
        withStep.insert(.clockStep, at: position)
        return withStep
      }
    }
  }()

  @Test func everyOrderingHasBeenEnumerated() {
    // 63 orders (the Delannoy number D(3, 3)); with k events moving both fingers
    // there are 6!/(k! (3-k)!^2 (6-2k)!/(6-k)!) of them, each 6 - k events long,
    // so 7 places for the clock step: 20 * 7 + 30 * 6 + 12 * 5 + 1 * 4.
    #expect(Self.scenarios.count == 384)
  }

  @Test(arguments: Gesture.allCases, Gesture.allCases)
  func aViewThatSawATouchBeginGetsExactlyOneEndOrCancellation(first: Gesture, second: Gesture) throws {
    for scenario in Self.scenarios {
      try check(scenario, gestures: [first, second])
    }
  }

  private func check(_ scenario: [Step], gestures: [Gesture]) throws {
    let app = TouchTrackerApp()
    try app.drawLine(from: Point(x: 50, y: 100), to: Point(x: 250, y: 100), at: 0)
    app.settle()
    let log = BookLog(app)
    // Finger 2 lands near finger 1, so two taps make a double tap.
    let starts = [Point(x: 100, y: 100), Point(x: 110, y: 104)]
    var progress = [0, 0]
    var time = 10.0
    for step in scenario {
      switch step {
      case .clockStep:
        time += 0.6
        app.advanceClock(to: time)
      case .fingers(let fingers):
        time += 0.05
        var inputs: [TouchInput] = []
        for finger in fingers {
          let index = finger - 1
          let start = starts[index]
          let end = gestures[index] == .tap ? start : Point(x: start.x + 60 * Double(finger), y: start.y + 80)
          let phase: TouchPhase = [.began, .moved, .ended][progress[index]]
          inputs.append(TouchInput(id: finger, phase: phase, location: phase == .began ? start : end))
          progress[index] += 1
        }
        try app.send(inputs, at: time)
      }
    }
    app.settle()

    let context = "\(gestures) \(scenario)"
    for finger in [1, 2] {
      let phases = log.entries.compactMap { entry -> String? in
        mentions(entry, finger) ? String(entry.prefix { $0 != "(" }) : nil
      }
      guard let first = phases.first else { continue }  // never heard of: fine
      #expect(first == "touchesBegan", "finger \(finger) was first sent \(first): \(context)")
      let ends = phases.filter { $0 == "touchesEnded" || $0 == "touchesCancelled" }
      #expect(ends.count == 1, "finger \(finger) got \(ends.count) ends: \(phases) \(context)")
      #expect(ends.first == phases.last, "finger \(finger) heard of after its end: \(phases) \(context)")
      #expect(phases.dropFirst().allSatisfy { $0 != "touchesBegan" }, "finger \(finger) began twice: \(context)")
    }
    #expect(app.application.activeTouchCount == 0)
    #expect(app.state.linesInProgress == 0, "a line left in progress: \(context)")
    #expect(app.state.circlesInProgress == 0, "a circle left in progress: \(context)")
  }

  /// Whether a log entry such as "touchesEnded(_:with:) [1, 2]" carries host id `finger`.
  private func mentions(_ entry: String, _ finger: Int) -> Bool {
    guard let open = entry.firstIndex(of: "["), let close = entry.lastIndex(of: "]") else { return false }
    return entry[entry.index(after: open)..<close].split(separator: ",").contains {
      $0.trimmingCharacters(in: .whitespaces) == String(finger)
    }
  }
}
