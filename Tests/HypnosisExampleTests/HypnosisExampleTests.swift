import HypnosisExample
import Testing
import TouchKit

/// The example runs on the engine alone, fed as a browser feeds it: one
/// finger's report at a time, committed once a frame.
@Suite struct HypnosisExampleTests {
  /// Reports each (id, phase, x, y) of one frame, then commits it.
  private func frame(_ app: HypnosisApp, at time: Double, _ touches: [(Int, TouchPhase, Double, Double)]) {
    for (id, phase, x, y) in touches {
      #expect(app.report(id: id, phaseCode: phase.rawValue, location: Point(x: x, y: y), time: time) == .queued)
    }
    #expect(app.commit(at: time) == .queued)
  }

  @Test func spreadingTwoFingersWidensTheRings() {
    let app = HypnosisApp(size: Size(width: 400, height: 600))
    let view = app.controller.hypnosisView
    #expect(view.ringSpacing == 20)
    let before = view.ringCount
    frame(app, at: 0, [(1, .began, 150, 300), (2, .began, 250, 300)])
    for step in 1...10 {
      let spread = 50 + Double(step) * 5  // each finger 50 → 100 from the middle
      frame(app, at: Double(step) * 0.016, [(1, .moved, 200 - spread, 300), (2, .moved, 200 + spread, 300)])
    }
    frame(app, at: 0.2, [(1, .ended, 100, 300), (2, .ended, 300, 300)])
    // The pinch begins past its hysteresis, so the scale is measured from there: close to 2.
    #expect(view.ringSpacing > 30 && view.ringSpacing <= 40, "\(view.ringSpacing)")
    #expect(view.ringCount < before)
  }

  @Test func theSpacingStaysInItsRange() {
    let app = HypnosisApp(size: Size(width: 400, height: 600))
    frame(app, at: 0, [(1, .began, 190, 300), (2, .began, 210, 300)])
    for step in 1...20 {
      let spread = 10 + Double(step) * 15
      frame(app, at: Double(step) * 0.016, [(1, .moved, 200 - spread, 300), (2, .moved, 200 + spread, 300)])
    }
    #expect(app.controller.hypnosisView.ringSpacing == HypnosisView.spacingRange.upperBound)
  }

  @Test func theButtonChangesTheColorByTargetActionAndATapElsewhereDoesNot() {
    let app = HypnosisApp(size: Size(width: 400, height: 600))
    let button = app.controller.colorButton.frame
    frame(app, at: 0, [(1, .began, 200, 200)])
    frame(app, at: 0.05, [(1, .ended, 200, 200)])
    #expect(app.controller.colorIndex == 0)
    frame(app, at: 1, [(2, .began, button.center.x, button.center.y)])
    frame(app, at: 1.05, [(2, .ended, button.center.x, button.center.y)])
    #expect(app.controller.colorIndex == 1)
    #expect(app.controller.hypnosisView.circleColor == HypnosisViewController.colors[1])
  }

  @Test func theRingsAreWhatRendersAndTheButtonIsOnTop() {
    let app = HypnosisApp(size: Size(width: 400, height: 600))
    let commands = app.render().commands
    let circles = commands.filter { if case .circle = $0 { true } else { false } }
    #expect(circles.count == app.controller.hypnosisView.ringCount)
    guard case .text(let title, _, _, _)? = commands.last else {
      Issue.record("the button's title is drawn last, over the rings: \(String(describing: commands.last))")
      return
    }
    #expect(title == "Color")
  }

  @Test func aBadReportIsIgnoredWithItsReason() {
    let app = HypnosisApp(size: Size(width: 400, height: 600))
    #expect(app.report(id: 1, phaseCode: 1, location: Point(x: 1, y: 1), time: 0) == .notDown)
    #expect(app.lastError == "Touch 1 moved before it began")
    #expect(app.report(id: 1, phaseCode: 0, location: Point(x: .nan, y: 1), time: 0) == .notFinite)
  }
}
