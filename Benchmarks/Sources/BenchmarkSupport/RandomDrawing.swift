import TouchTrackerCore

/// The drawings every benchmark row uses: finger-length strokes scattered over
/// one browser window, the way a drawing with very many lines looks in this
/// app (there is no scrolling or zoom: every line is on the one canvas).
public enum RandomDrawing {
  /// The canvas: Playwright's default viewport, a common laptop browser window.
  public static let canvas = Size(width: 1280, height: 720)

  /// How long a stroke is, in points.
  public enum Lengths: String, Sendable {
    /// 10 to 200 pt, any direction: a finger dragged across part of a phone or laptop screen.
    case strokes
    /// Both ends anywhere on the canvas (average ~490 pt): the worst case for a spatial index.
    case anywhere
  }

  /// `count` black 10 pt lines, the same for the same arguments.
  public static func lines(count: Int, lengths: Lengths = .strokes, seed: UInt64 = 1) -> [Line] {
    var random = SeededGenerator(seed: seed)
    var lines: [Line] = []
    lines.reserveCapacity(count)
    let maxX = canvas.width
    let maxY = canvas.height
    for _ in 0..<count {
      let begin = Point(x: random.uniform(0...maxX), y: random.uniform(0...maxY))
      let end: Point
      switch lengths {
      case .strokes:
        // A direction from a point on the unit circle's square, normalized:
        // no trigonometry, so the lines are the same on every platform.
        var dx = 0.0
        var dy = 0.0
        repeat {
          dx = random.uniform(-1...1)
          dy = random.uniform(-1...1)
        } while dx * dx + dy * dy > 1 || dx * dx + dy * dy < 1e-6
        let norm = (dx * dx + dy * dy).squareRoot()
        let length = random.uniform(10...200)
        end = Point(
          x: min(max(begin.x + dx / norm * length, 0), maxX), y: min(max(begin.y + dy / norm * length, 0), maxY))
      case .anywhere:
        end = Point(x: random.uniform(0...maxX), y: random.uniform(0...maxY))
      }
      lines.append(Line(begin: begin, end: end))
    }
    return lines
  }

  /// Query points (taps) uniform over the canvas.
  public static func taps(count: Int, seed: UInt64 = 2) -> [Point] {
    var random = SeededGenerator(seed: seed)
    return (0..<count).map { _ in Point(x: random.uniform(0...canvas.width), y: random.uniform(0...canvas.height)) }
  }
}
