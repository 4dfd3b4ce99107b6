/// The lines whose boxes are at most `extent` wide and high, bucketed by cell.
///
/// A bucket's lines lie within its cell grown by `extent / 2` on every side:
/// that square, `cellSize + extent` wide, is where their end points are
/// quantized, in steps of `unit`.
struct SizeClass {
  let level: Int
  let extent: Double
  let cellSize: Double
  let unit: Double
  let entryCount: Int

  /// Dense classes keep a table of bucket starts for every cell in the
  /// rectangle of occupied cells, row by row; cell i's bucket is
  /// `starts[i]..<starts[i + 1]`.
  let isDense: Bool
  let minCell: Cell
  let maxCell: Cell
  let width: Int
  private(set) var starts: [Int32] = []
  /// Sparse classes (cells spread over a huge area) keep a bucket number per occupied cell.
  private(set) var bucketOfCell: [Cell: Int] = [:]
  private(set) var bucketCells: [Cell] = []
  /// The next free slot of every bucket while entries are placed.
  private var cursors: [Int32] = []

  /// How far, in quantization steps, a quantized box or line can be from the real one:
  /// half a step per coordinate, plus room for rounding.
  static let boxSlack = 0.75
  static let lineSlack = 0.95

  init(level: Int, stats: LevelStats, firstEntry: Int) {
    self.level = level
    extent = LineIndex.extents[level]
    cellSize = LineIndex.cellSizes[level]
    unit = (cellSize + extent) / 255
    entryCount = stats.count
    minCell = stats.minCell
    maxCell = stats.maxCell
    let width = Double(stats.maxCell.x) - Double(stats.minCell.x) + 1
    let height = Double(stats.maxCell.y) - Double(stats.minCell.y) + 1
    isDense = width * height <= Double(stats.count / 2 + 4_096)
    if isDense {
      self.width = Int(width)
      starts = [Int32](repeating: 0, count: Int(width * height) + 1)
      starts[0] = Int32(firstEntry)
    } else {
      self.width = 0
      bucketCells.reserveCapacity(stats.count)
      starts = [Int32(firstEntry)]
    }
  }

  // MARK: Building

  /// Counts a line into `cell`'s bucket (first pass).
  mutating func count(_ cell: Cell) {
    if isDense {
      starts[denseIndex(cell) + 1] += 1
    } else if let bucket = bucketOfCell[cell] {
      starts[bucket + 1] += 1
    } else {
      bucketOfCell[cell] = bucketCells.count
      bucketCells.append(cell)
      starts.append(1)
    }
  }

  /// Turns counts into bucket starts, ready for `slot(for:)`.
  mutating func finishCounting() {
    for index in 1..<starts.count { starts[index] += starts[index - 1] }
    cursors = Array(starts.dropLast())
  }

  /// The next free entry of `cell`'s bucket (second pass).
  mutating func slot(for cell: Cell) -> Int {
    let bucket = isDense ? denseIndex(cell) : bucketOfCell[cell]!
    defer { cursors[bucket] += 1 }
    return Int(cursors[bucket])
  }

  /// Sorts every bucket by the entries' left edge (`Entry.minX`), so a query
  /// can stop reading a bucket at the first line that starts right of its reach.
  mutating func finishPlacing(_ entries: inout [Entry]) {
    cursors = []
    var bucketStart = Int(starts[0])
    for index in 1..<starts.count {
      let bucketEnd = Int(starts[index])
      if bucketEnd - bucketStart > 1 { entries[bucketStart..<bucketEnd].sort { $0.minX < $1.minX } }
      bucketStart = bucketEnd
    }
  }

  func entry(for line: Line, at position: Int, in cell: Cell) -> Entry {
    let frame = origin(of: cell)
    func quantized(_ value: Double, _ origin: Double) -> UInt8 {
      UInt8(max(0, min(255, ((value - origin) / unit).rounded())))
    }
    return Entry(
      line: Int32(position), x0: quantized(line.begin.x, frame.x), y0: quantized(line.begin.y, frame.y),
      x1: quantized(line.end.x, frame.x), y1: quantized(line.end.y, frame.y))
  }

  func denseIndex(_ cell: Cell) -> Int { (cell.y - minCell.y) * width + (cell.x - minCell.x) }

  /// The corner of the area where `cell`'s lines are quantized.
  func origin(of cell: Cell) -> Point {
    Point(x: Double(cell.x) * cellSize - extent / 2, y: Double(cell.y) * cellSize - extent / 2)
  }
}
