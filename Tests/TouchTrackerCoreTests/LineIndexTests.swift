import Testing
import TouchTrackerCore

/// The grid index must answer exactly what looking at every line answers:
/// a tap that selects the wrong line, or none, is a bug people see.
@Suite struct LineIndexTests {
  /// The app's selection radius plus a few others, all small next to the
  /// smallest cell's reach.
  static let radii: [Double] = [0, 1, DrawView.selectionRadius, 100]

  @Test(arguments: [0, 1, 2, 10, 100, 1_000, 20_000])
  func nearestMatchesScanningOnRandomDrawings(lineCount: Int) {
    var generator = SplitMix64(seed: UInt64(lineCount) &* 7919 &+ 1)
    let lines = Self.randomLines(count: lineCount, using: &generator)
    var index = LineIndex(lines: lines)
    #expect(index.count == lines.count)
    let queries = lineCount >= 20_000 ? 600 : 3_000
    for _ in 0..<queries {
      let point = Self.randomQuery(near: lines, using: &generator)
      for radius in Self.radii {
        let expected = LineIndex.nearestByScanning(to: point, within: radius, in: lines)
        let found = index.nearest(to: point, within: radius, in: lines)
        #expect(found == expected, "query \(point) within \(radius) among \(lines.count) lines")
        if found != expected { return }
      }
    }
  }

  @Test func appendingLinesOneByOneKeepsAnswersRight() {
    var generator = SplitMix64(seed: 99)
    let all = Self.randomLines(count: 3_000, using: &generator)
    var lines = Array(all.prefix(100))
    var index = LineIndex(lines: lines)
    for line in all.dropFirst(100) {
      lines.append(line)
      index.append(line, lines: lines)
      #expect(index.count == lines.count)
      for _ in 0..<3 {
        let point = Self.randomQuery(near: lines, using: &generator)
        let expected = LineIndex.nearestByScanning(to: point, within: DrawView.selectionRadius, in: lines)
        let found = index.nearest(to: point, within: DrawView.selectionRadius, in: lines)
        #expect(found == expected, "query \(point) after appending line \(lines.count - 1)")
        if found != expected { return }
      }
    }
  }

  @Test func aNewLineIsFoundRightAfterItIsAppended() {
    var lines = [Line(begin: Point(x: 0, y: 0), end: Point(x: 100, y: 0))]
    var index = LineIndex(lines: lines)
    #expect(index.nearest(to: Point(x: 50, y: 5), within: 20, in: lines) == 0)
    let newer = Line(begin: Point(x: 0, y: 10), end: Point(x: 100, y: 10))
    lines.append(newer)
    index.append(newer, lines: lines)
    #expect(index.nearest(to: Point(x: 50, y: 8), within: 20, in: lines) == 1)
    // Equally near: the newest, drawn on top, wins.
    #expect(index.nearest(to: Point(x: 50, y: 5), within: 20, in: lines) == 1)
  }

  @Test func invalidatingAfterRemovalsGivesTheNewPositions() {
    var generator = SplitMix64(seed: 2024)
    var lines = Self.randomLines(count: 2_000, using: &generator)
    var index = LineIndex(lines: lines)
    for round in 0..<20 {
      // Remove a few lines from anywhere, or replace one in place (the count stays the same).
      if round % 4 == 3, !lines.isEmpty {
        let position = Int.random(in: lines.indices, using: &generator)
        lines[position] = Self.randomLines(count: 1, using: &generator)[0]
      } else {
        for _ in 0..<Int.random(in: 1...50, using: &generator) where !lines.isEmpty {
          lines.remove(at: Int.random(in: lines.indices, using: &generator))
        }
      }
      index.invalidate()
      for _ in 0..<200 {
        let point = Self.randomQuery(near: lines, using: &generator)
        let expected = LineIndex.nearestByScanning(to: point, within: DrawView.selectionRadius, in: lines)
        let found = index.nearest(to: point, within: DrawView.selectionRadius, in: lines)
        #expect(found == expected, "query \(point) after round \(round), \(lines.count) lines")
        if found != expected { return }
      }
      #expect(index.count == lines.count)
    }
  }

  @Test func removingEveryLineLeavesNothingToFind() {
    var lines = [Line(begin: Point(x: 0, y: 0), end: Point(x: 100, y: 0))]
    var index = LineIndex(lines: lines)
    #expect(index.nearest(to: Point(x: 10, y: 0), within: 20, in: lines) == 0)
    lines.removeAll()
    index.invalidate()
    #expect(index.nearest(to: Point(x: 10, y: 0), within: 20, in: lines) == nil)
  }

  @Test func aNonFinitePointFindsNothing() {
    let lines = [Line(begin: Point(x: 0, y: 0), end: Point(x: 100, y: 0))]
    var index = LineIndex(lines: lines)
    #expect(index.nearest(to: Point(x: .nan, y: 0), within: 20, in: lines) == nil)
    #expect(index.nearest(to: Point(x: .infinity, y: 0), within: 20, in: lines) == nil)
  }

  /// The index's contract holds for any radius, not only the app's 20 pt:
  /// a short line near the point must not be skipped because the search
  /// area covers many small cells.
  @Test(arguments: [1_000.0, 2_000.0, 100_000.0])
  func wideRadiiFindTheSameLineAsScanning(radius: Double) {
    let lines = [
      Line(begin: Point(x: 10, y: 10), end: Point(x: 20, y: 10)),
      Line(begin: Point(x: 0, y: 900), end: Point(x: 5_000, y: 900)),
    ]
    var index = LineIndex(lines: lines)
    let point = Point(x: 15, y: 12)
    #expect(LineIndex.nearestByScanning(to: point, within: radius, in: lines) == 0)
    #expect(index.nearest(to: point, within: radius, in: lines) == 0)
  }

  // MARK: Random drawings

  /// Lines of very different lengths (zero, a few points, a screen, far
  /// beyond one) at ordinary, negative and huge coordinates.
  static func randomLines(count: Int, using generator: inout SplitMix64) -> [Line] {
    var lines: [Line] = []
    lines.reserveCapacity(count)
    for _ in 0..<count {
      let begin = randomPoint(using: &generator)
      let length: Double
      switch Int.random(in: 0..<10, using: &generator) {
      case 0: length = 0
      case 1...4: length = Double.random(in: 0...30, using: &generator)
      case 5...7: length = Double.random(in: 30...1_000, using: &generator)
      case 8: length = Double.random(in: 1_000...100_000, using: &generator)
      default: length = Double.random(in: 100_000...1e9, using: &generator)
      }
      let angle = Double.random(in: 0..<(2 * Double.pi), using: &generator)
      // Directions from a few fixed ones (axis-parallel lines are common) or any.
      let (dx, dy): (Double, Double) =
        switch Int.random(in: 0..<3, using: &generator) {
        case 0: ([1.0, -1.0, 0.0, 0.0][Int(angle) % 4], [0.0, 0.0, 1.0, -1.0][Int(angle) % 4])
        default: (cosine(angle), cosine(angle - Double.pi / 2))
        }
      lines.append(Line(begin: begin, end: Point(x: begin.x + dx * length, y: begin.y + dy * length)))
    }
    return lines
  }

  static func randomPoint(using generator: inout SplitMix64) -> Point {
    switch Int.random(in: 0..<10, using: &generator) {
    case 0...5:
      return Point(
        x: Double.random(in: 0...1_200, using: &generator), y: Double.random(in: 0...900, using: &generator))
    case 6...7:
      return Point(
        x: Double.random(in: -5_000...5_000, using: &generator), y: Double.random(in: -5_000...0, using: &generator))
    case 8:
      // Integer points: exact cell boundaries (multiples of 32) happen.
      return Point(
        x: Double(Int.random(in: -64...1_280, using: &generator)),
        y: Double(Int.random(in: -64...960, using: &generator)))
    default:
      return Point(
        x: Double.random(in: -1e12...1e12, using: &generator), y: Double.random(in: -1e12...1e12, using: &generator))
    }
  }

  /// Mostly points near a line (where taps land), some anywhere.
  static func randomQuery(near lines: [Line], using generator: inout SplitMix64) -> Point {
    guard !lines.isEmpty, Int.random(in: 0..<4, using: &generator) != 0 else {
      return randomPoint(using: &generator)
    }
    let line = lines[Int.random(in: lines.indices, using: &generator)]
    let t = Double.random(in: -0.1...1.1, using: &generator)
    let onLine = line.begin + (line.end - line.begin) * t
    return Point(
      x: onLine.x + Double.random(in: -40...40, using: &generator),
      y: onLine.y + Double.random(in: -40...40, using: &generator))
  }

  /// cos without Foundation: a short Taylor series after range reduction is
  /// plenty for picking directions.
  static func cosine(_ angle: Double) -> Double {
    var x = angle.truncatingRemainder(dividingBy: 2 * Double.pi)
    if x > Double.pi { x -= 2 * Double.pi }
    if x < -Double.pi { x += 2 * Double.pi }
    var term = 1.0
    var sum = 1.0
    for n in stride(from: 2, through: 30, by: 2) {
      term *= -x * x / Double((n - 1) * n)
      sum += term
    }
    return sum
  }
}
