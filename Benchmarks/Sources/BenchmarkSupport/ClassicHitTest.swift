import TouchTrackerCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The classic TouchTracker hit test (Big Nerd Ranch's `indexOfLine(at:)`):
/// walk every finished line, sample 21 points along it (t = 0, 0.05, ... 1),
/// and measure each with `hypot`. The book returns the first line with a
/// sample closer than 20 pt; this baseline, as the benchmark issue defines
/// it, takes the nearest sample within the radius over all lines, which
/// makes it a fairer comparison (same question, same answer most of the
/// time) and never faster than the book's early exit on a miss.
///
/// Sampling is why it can disagree with the exact point-to-segment distance:
/// on a line longer than 40 pt the samples are more than 2 pt apart, so a
/// point just inside the radius between two samples is missed, and the
/// nearest sample is not always on the nearest line.
public enum ClassicHitTest {
  public static let samples = 21

  public static func nearestLine(to point: Point, within radius: Double, in lines: [Line]) -> Int? {
    var best: Int?
    var bestDistance = radius
    for index in lines.indices {
      let begin = lines[index].begin
      let end = lines[index].end
      for k in 0..<samples {
        let t = Double(k) / Double(samples - 1)
        let x = begin.x + (end.x - begin.x) * t
        let y = begin.y + (end.y - begin.y) * t
        let distance = hypot(x - point.x, y - point.y)
        if distance <= bestDistance && (best == nil || distance < bestDistance) {
          best = index
          bestDistance = distance
        }
      }
    }
    return best
  }
}
