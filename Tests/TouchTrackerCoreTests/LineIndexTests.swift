import Testing
import TouchKitTestSupport
import TouchTrackerCore
import TouchTrackerTestSupport

/// The grid index must answer exactly what looking at every line answers:
/// a tap that selects the wrong line, or none, is a bug people see.
@Suite struct LineIndexTests {
  /// The app's selection radius plus a few others, all small next to the
  /// smallest cell's reach.
  static let radii: [Double] = [0, 1, DrawView.selectionRadius, 100]

  /// Scanning every line is the oracle, and in a debug build these tests
  /// take seconds of CPU each. Swift Testing runs them on the cooperative
  /// threads (two on a 2-core machine) that the in-process servers of the
  /// server tests run on too: two of these without a pause starved a live
  /// socket for 30 s (its ack never came, CI stop 24). They yield between
  /// queries.
  static func letOthersRun() async { await Task.yield() }

  @Test(arguments: [0, 1, 2, 10, 100, 1_000, 20_000])
  func nearestMatchesScanningOnRandomDrawings(lineCount: Int) async {
    var generator = SplitMix64(seed: UInt64(lineCount) &* 7919 &+ 1)
    let lines = Self.randomLines(count: lineCount, using: &generator)
    var index = LineIndex(lines: lines)
    #expect(index.count == lines.count)
    let queries = lineCount >= 20_000 ? 600 : 3_000
    for _ in 0..<queries {
      await Self.letOthersRun()
      let point = Self.randomQuery(near: lines, using: &generator)
      for radius in Self.radii {
        let expected = LineIndex.nearestByScanning(to: point, within: radius, in: lines)
        let found = index.nearest(to: point, within: radius, in: lines)
        #expect(found == expected, "query \(point) within \(radius) among \(lines.count) lines")
        if found != expected { return }
      }
    }
  }

  @Test func appendingLinesOneByOneKeepsAnswersRight() async {
    var generator = SplitMix64(seed: 99)
    let all = Self.randomLines(count: 3_000, using: &generator)
    var lines = Array(all.prefix(100))
    var index = LineIndex(lines: lines)
    for line in all.dropFirst(100) {
      await Self.letOthersRun()
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

  /// Deletes, undos of deletes, moves and appends in any order: every answer
  /// is scanning's, and none of them rebuilds the index (a tap after an undo
  /// at 100,000 lines must not wait for a rebuild).
  @Test(arguments: [1, 2, 3])
  func editsInPlaceKeepAnswersRightWithoutRebuilding(seed: UInt64) async {
    var generator = SplitMix64(seed: seed)
    var lines = Self.randomLines(count: 5_000, using: &generator)
    var index = LineIndex(lines: lines)
    var spare = Self.randomLines(count: 400, using: &generator)
    for step in 0..<400 {
      await Self.letOthersRun()
      let edit: LineIndex.Edit
      switch generator.next() % 5 {
      case 0:
        let position = Int(generator.next() % UInt64(lines.count))
        lines.remove(at: position)
        edit = .removed(position)
      case 1:
        let position = Int(generator.next() % UInt64(lines.count + 1))
        lines.insert(spare.removeLast(), at: position)
        edit = .inserted(position)
      case 2:
        let position = Int(generator.next() % UInt64(lines.count))
        let offset = Point(x: Double(generator.next() % 300) - 150, y: Double(generator.next() % 300) - 150)
        lines[position] = lines[position].offset(by: offset)
        edit = .moved(position)
      case 3:
        lines.append(spare.removeLast())
        edit = .appended
      default:
        lines.removeLast()
        edit = .removedLast
      }
      index.apply(edit, lines: lines)
      for _ in 0..<4 {
        let point = Self.randomQuery(near: lines, using: &generator)
        let expected = LineIndex.nearestByScanning(to: point, within: DrawView.selectionRadius, in: lines)
        let found = index.nearest(to: point, within: DrawView.selectionRadius, in: lines)
        #expect(found == expected, "query \(point) after step \(step): \(edit)")
        if found != expected { return }
      }
    }
    #expect(index.buildCount == 1, "400 edits of 5,000 lines stay within what is measured one by one")
  }

  @Test func replacingEverythingRebuildsOnTheNextQuery() {
    var generator = SplitMix64(seed: 5)
    var lines = Self.randomLines(count: 100, using: &generator)
    var index = LineIndex(lines: lines)
    lines = Self.randomLines(count: 50, using: &generator)
    index.apply(.everything, lines: lines)
    let point = Self.randomQuery(near: lines, using: &generator)
    #expect(
      index.nearest(to: point, within: 1_000, in: lines)
        == LineIndex.nearestByScanning(to: point, within: 1_000, in: lines))
    #expect(index.buildCount == 2)
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

  @Test func invalidatingAfterRemovalsGivesTheNewPositions() async {
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
        await Self.letOthersRun()
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

  /// The benchmark's regime: very many lines on one screen, so most of a
  /// query's work is ruling lines out from their quantized end points.
  @Test func aCrowdedScreenMatchesScanning() async {
    var generator = SplitMix64(seed: 31337)
    var lines: [Line] = []
    for _ in 0..<30_000 {
      let begin = Point(
        x: Double.random(in: 0...1_280, using: &generator), y: Double.random(in: 0...720, using: &generator))
      let end = Point(
        x: begin.x + Double.random(in: -150...150, using: &generator),
        y: begin.y + Double.random(in: -150...150, using: &generator))
      lines.append(Line(begin: begin, end: end))
    }
    var index = LineIndex(lines: lines)
    for _ in 0..<500 {
      await Self.letOthersRun()
      let point = Point(
        x: Double.random(in: -30...1_310, using: &generator), y: Double.random(in: -30...750, using: &generator))
      for radius in Self.radii {
        let expected = LineIndex.nearestByScanning(to: point, within: radius, in: lines)
        let found = index.nearest(to: point, within: radius, in: lines)
        #expect(found == expected, "query \(point) within \(radius)")
        if found != expected { return }
      }
    }
  }

  /// Lines of different sizes land in different buckets; equally near, the newest still wins.
  @Test func equallyNearLinesOfDifferentSizesPickTheNewest() {
    let lines = [
      Line(begin: Point(x: 0, y: 105), end: Point(x: 1_000, y: 105)),
      Line(begin: Point(x: 495, y: 95), end: Point(x: 505, y: 95)),
      Line(begin: Point(x: 400, y: 105), end: Point(x: 600, y: 105)),
      Line(begin: Point(x: 495, y: 95), end: Point(x: 505, y: 95)),
    ]
    var index = LineIndex(lines: lines)
    let point = Point(x: 500, y: 100)
    #expect(LineIndex.nearestByScanning(to: point, within: 20, in: lines) == 3)
    #expect(index.nearest(to: point, within: 20, in: lines) == 3)
    #expect(index.nearest(to: point, within: 20, in: Array(lines.prefix(3))) == 2)
  }

  /// Coordinates too large to bucket, and ones that are not numbers at all,
  /// are answered as scanning answers them, whatever the radius.
  @Test(arguments: [0, 20, 1e16, Double.infinity])
  func farAndNonFiniteLinesAnswerAsScanning(radius: Double) {
    let far = 1e15
    let lines = [
      Line(begin: Point(x: far, y: far), end: Point(x: far + 10, y: far)),
      Line(begin: Point(x: 0, y: 0), end: Point(x: 100, y: 0)),
      Line(begin: Point(x: .nan, y: 0), end: Point(x: 10, y: 0)),
      Line(begin: Point(x: .infinity, y: 5), end: Point(x: 10, y: 5)),
      Line(begin: Point(x: -far, y: 3), end: Point(x: far, y: 3)),
    ]
    var index = LineIndex(lines: lines)
    for point in [Point(x: far + 5, y: far + 1), Point(x: 50, y: 1), Point(x: 5, y: 5), Point(x: -1e14, y: 0)] {
      let expected = LineIndex.nearestByScanning(to: point, within: radius, in: lines)
      #expect(index.nearest(to: point, within: radius, in: lines) == expected, "query \(point) within \(radius)")
    }
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
