import Testing
import TouchKit
import TouchKitTestSupport

/// UISwipeGestureRecognizer.direction: "The permitted direction of the swipe
/// for this gesture recognizer", an option set: "You can specify multiple
/// directions"; the default is right. Its raw values are UIKit's.
@Suite struct SwipeDirectionOptionSetTests {
  private func swipe(_ direction: SwipeGestureRecognizer.Direction, from start: Point, to end: Point) throws -> Bool {
    let (application, view) = makeApplication()
    let swipe = SwipeGestureRecognizer()
    swipe.direction = direction
    let recorder = ActionRecorder()
    swipe.addTarget(recorder, action: Action("swipe:"))
    view.addGestureRecognizer(swipe)
    try application.send([TouchInput(id: 1, phase: .began, location: start)], at: 0)
    try application.send([TouchInput(id: 1, phase: .moved, location: end)], at: 0.05)
    try application.send([TouchInput(id: 1, phase: .ended, location: end)], at: 0.1)
    return recorder.received == ["swipe: ended"]
  }

  @Test func directionsHaveUIKitsRawValuesAndRightIsTheDefault() {
    #expect(SwipeGestureRecognizer.Direction.right.rawValue == 1)
    #expect(SwipeGestureRecognizer.Direction.left.rawValue == 2)
    #expect(SwipeGestureRecognizer.Direction.up.rawValue == 4)
    #expect(SwipeGestureRecognizer.Direction.down.rawValue == 8)
    #expect(SwipeGestureRecognizer().direction == .right)
  }

  @Test func aSwipeAllowingLeftAndRightRecognizesEitherAndNotUp() throws {
    let center = Point(x: 200, y: 200)
    #expect(try swipe([.left, .right], from: center, to: Point(x: 260, y: 200)))
    #expect(try swipe([.left, .right], from: center, to: Point(x: 140, y: 200)))
    #expect(try !swipe([.left, .right], from: center, to: Point(x: 200, y: 140)))
  }

  @Test func aSingleDirectionStillWorksAlone() throws {
    let center = Point(x: 200, y: 200)
    #expect(try swipe(.down, from: center, to: Point(x: 200, y: 260)))
    #expect(try !swipe(.down, from: center, to: Point(x: 200, y: 140)))
    #expect(try !swipe(.down, from: center, to: Point(x: 260, y: 200)))
  }

  @Test func aSwipeAllowingEveryDirectionRecognizesADiagonalOnlyAlongAnAxis() throws {
    let all: SwipeGestureRecognizer.Direction = [.right, .left, .up, .down]
    let center = Point(x: 200, y: 200)
    #expect(try swipe(all, from: center, to: Point(x: 200, y: 260)))
    #expect(try !swipe(all, from: center, to: Point(x: 250, y: 250)), "45 degrees is no direction")
  }
}
