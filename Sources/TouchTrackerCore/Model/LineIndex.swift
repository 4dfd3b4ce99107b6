/// Finds the line nearest to a point among very many, without looking at most of them.
///
/// Lines are sorted into size classes (class k: bounding box at most
/// `baseCellSize * sqrt(2)^k` wide and high) and, within a class, into
/// buckets by the grid cell (`cellSize(ofLevel:)`) holding the box's center, so a
/// line lies within its cell grown by half the class size on every side. A
/// query visits, in each class, only the cells whose grown area is within reach.
///
/// Buckets are stored one after another in a single array of 8-byte entries
/// (the line's position and its end points quantized to a byte each within
/// the bucket's area), so a query reads memory in order and rules most lines
/// out from those bytes alone; it reads the line itself only when the
/// quantized line could be nearer than the best so far. That keeps a tap on a
/// drawing of 100,000 lines to microseconds at 8 bytes a line.
///
/// Lines are identified by their position in the drawing. Appended lines are
/// scanned one by one until there are enough of them to rebuild (amortized
/// O(1) an append); removals, insertions and moves are applied in place
/// (`LineIndex+Edits.swift`), and only replacing everything calls
/// `invalidate()`, after which the next query rebuilds. The answer is always
/// exactly `nearestByScanning`'s.
public struct LineIndex {
  public static let baseCellSize = 32.0
  static let levelCount = 80

  /// Class `level` holds lines whose box is at most this wide and high:
  /// `baseCellSize` times sqrt(2)^level, finer steps than doubling so a
  /// class's bound overstates its lines' sizes less (and a query reaches less
  /// far). Always the same arithmetic, so placing and searching agree exactly.
  static func extent(ofLevel level: Int) -> Double {
    let extent = baseCellSize * Double(UInt64(1) << UInt64(level / 2))
    return level % 2 == 0 ? extent : extent * 1.4142135623730951
  }

  /// Class `level`'s grid: cells a quarter of its extent (at least
  /// `baseCellSize`), so a query looks at a few dozen cells in any class.
  static func cellSize(ofLevel level: Int) -> Double { max(baseCellSize, extent(ofLevel: level) / 4) }

  /// Lines farther out than this from the origin are not bucketed (their
  /// quantization would be too coarse to trust); they are scanned.
  static let bucketedCoordinateLimit = 1_099_511_627_776.0  // 2^40

  /// The size classes that hold lines, each with its buckets.
  var classes: [SizeClass] = []
  /// Every bucketed line, bucket after bucket.
  var entries: [Entry] = []
  /// Built lines measured on every query: those with non-finite or enormous
  /// coordinates, and loose ones (moved or inserted since the build).
  var unbucketed: [Int32] = []
  /// How many of `unbucketed` are loose.
  var looseCount = 0
  /// Entries of lines removed or moved since the build (`Entry.dead`).
  var deadCount = 0
  /// Lines `0..<builtCount` are bucketed; later ones were appended since and are scanned.
  var builtCount = 0
  /// How many times the index was built: edits applied in place leave it as it was.
  public internal(set) var buildCount = 0
  /// -1 once invalidated: then no array has that many lines, and the next use rebuilds.
  private var lineCount = 0

  public init() {}

  public init(lines: [Line]) {
    rebuild(lines)
  }

  /// How many lines the index holds (when valid).
  public var count: Int { max(lineCount, 0) }

  public mutating func invalidate() { lineCount = -1 }

  mutating func setCount(_ count: Int) { lineCount = count }

  /// False once invalidated, until the next query rebuilds.
  var isCurrent: Bool { lineCount >= 0 }

  /// Builds the index of `lines` at once (`Build`, every pass whole).
  public mutating func rebuild(_ lines: [Line]) {
    let build = Build(lineCount: lines.count)
    _ = build.advance(lines, by: .max)
    take(build, lines: lines)
  }

  /// Adds the line at position `count`, the newest.
  public mutating func append(_ line: Line, lines: [Line]) {
    if lineCount != lines.count - 1 {
      rebuild(lines)
    } else {
      lineCount += 1
    }
    _checkInvariants(lines)
  }

  /// The position of the line nearest to `point` whose distance is at most
  /// `radius`; among equally near lines, the newest (it is drawn on top).
  ///
  /// - Complexity: O(lines within reach of `point` in the visited cells), independent of the total.
  public mutating func nearest(to point: Point, within radius: Double, in lines: [Line]) -> Int? {
    // Appended lines beyond 1,024 + 1/32 of the bucketed ones are bucketed by a rebuild first.
    if lineCount != lines.count || needsRebuild { rebuild(lines) }
    // Nothing is within a negative or NaN radius. An infinite one reaches every
    // cell and every quantized line, so every line is measured, as scanning does.
    guard point.isFinite, radius >= 0 else { return nil }
    var search = Search(point: point, radius: radius)
    entries.withUnsafeBufferPointer { entries in
      for sizeClass in classes { sizeClass.visit(reachOf: &search, entries: entries, lines: lines) }
    }
    for position in unbucketed { search.consider(Int(position), in: lines) }
    for position in builtCount..<lineCount { search.consider(position, in: lines) }
    return search.best >= 0 ? search.best : nil
  }

  /// The same answer by looking at every line: the reference the index is tested against.
  public static func nearestByScanning(to point: Point, within radius: Double, in lines: [Line]) -> Int? {
    var best: Int?
    var bestDistance = radius
    for (index, line) in lines.enumerated() {
      let distance = line.segment.distance(to: point)
      if distance < bestDistance || (distance == bestDistance && index > (best ?? -1)) {
        best = index
        bestDistance = distance
      }
    }
    return best
  }
}

/// A query in progress: the best line so far and its distance.
struct Search {
  let point: Point
  /// The best line's position, or -1.
  private(set) var best = -1
  private(set) var bestDistance: Double

  init(point: Point, radius: Double) {
    self.point = point
    self.bestDistance = radius
  }

  /// Measures line `position` exactly, as `nearestByScanning` does, and keeps it if it is the best so far.
  mutating func consider(_ position: Int, in lines: [Line]) {
    let distance = lines[position].segment.distance(to: point)
    if distance < bestDistance || (distance == bestDistance && position > best) {
      best = position
      bestDistance = distance
    }
  }
}
