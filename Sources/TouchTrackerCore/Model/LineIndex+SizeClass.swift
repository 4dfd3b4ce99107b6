/// The lines whose boxes are at most `extent` wide and high, bucketed by the
/// cell of a grid that holds their box's center.
///
/// A bucket's lines lie within its cell grown by `extent / 2` on every side:
/// that square, `cellSize + extent` wide, is where their end points are
/// quantized, in steps of `unit`. Buckets are numbered row by row over the
/// rectangle of cells the class's centers span; bucket b is
/// `starts[b]..<starts[b + 1]` in the index's entries.
struct SizeClass {
  let level: Int
  let extent: Double
  /// `LineIndex.cellSize(ofLevel:)`, doubled as often as it takes to keep the
  /// table of buckets small when the lines are spread over a huge area.
  let cellSize: Double
  let unit: Double
  /// The corner of bucket 0's cell.
  let origin: Point
  let width: Int
  let height: Int
  private(set) var starts: [Int32]
  /// The next free slot of every bucket while entries are placed.
  private var cursors: [Int32] = []

  /// How far, in quantization steps, a quantized box or line can be from the real one:
  /// half a step per coordinate, plus room for rounding.
  static let boxSlack = 0.75
  static let lineSlack = 0.95

  init(level: Int, stats: LevelStats, firstEntry: Int) {
    self.level = level
    extent = LineIndex.extent(ofLevel: level)
    let bucketLimit = Double(stats.count / 2 + 4_096)
    var cellSize = LineIndex.cellSize(ofLevel: level)
    func cellsAcross(_ low: Double, _ high: Double) -> Double {
      (high / cellSize).rounded(.down) - (low / cellSize).rounded(.down) + 1
    }
    while cellsAcross(stats.minCenter.x, stats.maxCenter.x) * cellsAcross(stats.minCenter.y, stats.maxCenter.y)
      > bucketLimit
    {
      cellSize *= 2
    }
    self.cellSize = cellSize
    unit = (cellSize + extent) / 255
    origin = Point(
      x: (stats.minCenter.x / cellSize).rounded(.down) * cellSize,
      y: (stats.minCenter.y / cellSize).rounded(.down) * cellSize)
    width = Int(cellsAcross(stats.minCenter.x, stats.maxCenter.x))
    height = Int(cellsAcross(stats.minCenter.y, stats.maxCenter.y))
    starts = [Int32](repeating: 0, count: width * height + 1)
    starts[0] = Int32(firstEntry)
  }

  // MARK: Building

  /// The bucket of the cell holding `center`.
  func bucket(of center: Point) -> Int {
    let x = min(max(Int(((center.x - origin.x) / cellSize).rounded(.down)), 0), width - 1)
    let y = min(max(Int(((center.y - origin.y) / cellSize).rounded(.down)), 0), height - 1)
    return y * width + x
  }

  /// Counts one more line into `bucket` (before `finishCounting`).
  mutating func count(_ bucket: Int) { starts[bucket + 1] += 1 }

  /// Turns counts into bucket starts, ready for `takeSlot(inBucket:)`.
  mutating func finishCounting() {
    for index in 1..<starts.count { starts[index] += starts[index - 1] }
    cursors = Array(starts.dropLast())
  }

  /// The next free entry of `bucket`.
  mutating func takeSlot(inBucket bucket: Int) -> Int {
    defer { cursors[bucket] += 1 }
    return Int(cursors[bucket])
  }

  mutating func finishPlacing() { cursors = [] }

  func entry(for line: Line, at position: Int, inBucket bucket: Int) -> Entry {
    let corner = frame(x: bucket % width, y: bucket / width)
    // Clamped, then rounded to nearest by truncating (the value is not negative).
    func quantized(_ value: Double, _ origin: Double) -> UInt8 {
      UInt8(max(0, min(255, (value - origin) / unit)) + 0.5)
    }
    return Entry(
      line: Int32(position), x0: quantized(line.begin.x, corner.x), y0: quantized(line.begin.y, corner.y),
      x1: quantized(line.end.x, corner.x), y1: quantized(line.end.y, corner.y))
  }

  /// The corner of the area where the lines of the cell in column `x`, row `y` are quantized.
  func frame(x: Int, y: Int) -> Point {
    Point(x: origin.x + Double(x) * cellSize - extent / 2, y: origin.y + Double(y) * cellSize - extent / 2)
  }
}
