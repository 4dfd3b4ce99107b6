import TouchTrackerCore

/// One hit-test row: `count` lines, their index built, and the taps to look up.
///
/// A class so the benchmark closures can call the (mutating) index through
/// the setup state without copying it.
public final class HitTestScenario {
  public static let radius = DrawView.selectionRadius
  public static let counts = [1_000, 10_000, 100_000, 1_000_000]
  /// The taps of every row; the classic scan takes one per iteration, in turn.
  public static let tapCount = 64

  public let lines: [Line]
  public let taps: [Point]
  public var index: LineIndex
  private var nextClassicTap = 0

  public init(count: Int, lengths: RandomDrawing.Lengths = .strokes) {
    lines = RandomDrawing.lines(count: count, lengths: lengths)
    taps = RandomDrawing.taps(count: HitTestScenario.tapCount)
    index = LineIndex(lines: lines)
  }

  /// Looks up every tap with `LineIndex.nearest`; returns how many hit a line.
  public func ours() -> Int {
    var found = 0
    for tap in taps where index.nearest(to: tap, within: HitTestScenario.radius, in: lines) != nil { found += 1 }
    return found
  }

  /// Looks up the next tap in turn with the classic scan.
  public func classicNextTap() -> Int? {
    let tap = taps[nextClassicTap]
    nextClassicTap = (nextClassicTap + 1) % taps.count
    return ClassicHitTest.nearestLine(to: tap, within: HitTestScenario.radius, in: lines)
  }
}
