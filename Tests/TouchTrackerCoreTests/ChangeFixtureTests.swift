import Testing
import TouchTrackerTestSupport

@testable import TouchTrackerCore

/// The shared change fixtures (`Tests/Support/ChangeFixtures`) in the
/// core: every way the core applies changes gives the fixture's drawing.
@Suite struct ChangeFixtureTests {
  @Test(arguments: ChangeFixture.all) func applyGivesTheExpectedDrawing(_ fixture: ChangeFixture) {
    var drawing = fixture.base
    for change in fixture.changes { drawing.apply(change) }
    #expect(drawing == fixture.expected)
  }

  /// The tracked apply (undo, redo, others' changes) gives the same, and its
  /// reversals, newest first, give the base back exactly.
  @Test(arguments: ChangeFixture.all) func theTrackedApplyAgreesAndReversesExactly(_ fixture: ChangeFixture) {
    var drawing = fixture.base
    var reversals: [Reversal] = []
    for change in fixture.changes {
      if let reversal = drawing.applyTracked(change).reversal { reversals.append(reversal) }
    }
    #expect(drawing == fixture.expected)
    for reversal in reversals.reversed() { _ = drawing.applyTracked(reversal) }
    #expect(drawing == fixture.base)
  }

  /// A page receiving the changes as others' shows the fixture's drawing,
  /// with its own unacknowledged line on top until the server has it.
  @Test(arguments: ChangeFixture.all) func aViewReceivingThemAgreesWithItsOwnLineOnTop(_ fixture: ChangeFixture) throws
  {
    let app = TouchTrackerApp()
    app.drawView.model.publishesChanges = true
    app.drawView.model.setIDOrigin(99)
    app.drawView.load(fixture.base)
    try app.drawLine(from: Point(x: 400, y: 400), to: Point(x: 500, y: 450), at: 1)
    app.settle()
    let mine = try #require(app.drawing.lines.last)
    app.drawView.receiveChanges(fixture.changes)
    var expected = fixture.expected
    expected.lines.append(mine)
    #expect(app.drawing == expected)
  }
}
