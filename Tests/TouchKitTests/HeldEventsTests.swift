import Testing
import TouchKitTestSupport

@testable import TouchKit

/// Held snapshots name their events (`Application.heldEvents`); an event
/// is kept only while a held snapshot names it.
@Suite struct HeldEventsTests {
  /// Never decides, and holds its touches' ends back (UIKit's default).
  final class Undecided: GestureRecognizer {}

  @Test func anEndHeldBackForGoodKeepsOnlyItsOwnEvent() throws {
    let (application, view) = makeApplication()
    view.addGestureRecognizer(Undecided())
    try application.send([began(1, 10, 10)], at: 0)
    try application.send([ended(1, 10, 10)], at: 0.1)  // held: the recognizer is undecided
    #expect(application.heldEvents.count == 1)
    // Another finger on another part of the screen: its events come and go.
    for step in 0..<50 {
      let time = 0.2 + Double(step) / 100
      try application.send([step == 0 ? began(2, 200, 200) : moved(2, 200 + Double(step), 200)], at: time)
    }
    #expect(application.heldEvents.count == 1, "only the held end's event")
    #expect(view.messages.first == "began 1")
    #expect(!view.messages.contains("ended 1"))
  }

  @Test func everyEventGoesOnceItsSnapshotsAreDelivered() throws {
    let (application, view) = makeApplication()
    try application.send([began(1, 10, 10), began(2, 20, 20)], at: 0)
    try application.send([moved(1, 11, 10), moved(2, 21, 20)], at: 0.1)
    #expect(application.heldEvents.isEmpty)
    #expect(view.messages == ["began 1,2", "moved 1,2"])
  }
}
