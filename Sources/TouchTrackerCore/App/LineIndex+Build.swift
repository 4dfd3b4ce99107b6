/// One bucketed line: its position in the drawing and its end points
/// quantized to a byte each within its bucket's area (see `SizeClass.unit`).
struct Entry {
  var line: Int32
  var x0: UInt8
  var y0: UInt8
  var x1: UInt8
  var y1: UInt8

  var minX: UInt8 { min(x0, x1) }
}

/// A cell of a size class's grid (`LineIndex.cellSizes`).
struct Cell: Hashable {
  var x: Int
  var y: Int
}

/// Where a line goes: its size class and the cell holding its box's center.
/// Nil for a line with non-finite or enormous coordinates.
struct Placement {
  let level: Int
  let cell: Cell

  init?(_ line: Line) {
    let limit = LineIndex.bucketedCoordinateLimit
    let (b, e) = (line.begin, line.end)
    // False for NaN too.
    guard b.x.magnitude <= limit, b.y.magnitude <= limit, e.x.magnitude <= limit, e.y.magnitude <= limit else {
      return nil
    }
    let (minX, maxX) = (min(b.x, e.x), max(b.x, e.x))
    let (minY, maxY) = (min(b.y, e.y), max(b.y, e.y))
    let size = max(maxX - minX, maxY - minY)
    var level = 0
    while LineIndex.extents[level] < size { level += 1 }
    self.level = level
    let cellSize = LineIndex.cellSizes[level]
    cell = Cell(
      x: Int(((minX + maxX) / 2 / cellSize).rounded(.down)), y: Int(((minY + maxY) / 2 / cellSize).rounded(.down)))
  }
}

/// How many lines a level holds and the rectangle of cells they occupy.
struct LevelStats {
  var count = 0
  var minCell = Cell(x: .max, y: .max)
  var maxCell = Cell(x: .min, y: .min)

  mutating func include(_ cell: Cell) {
    count += 1
    minCell = Cell(x: min(minCell.x, cell.x), y: min(minCell.y, cell.y))
    maxCell = Cell(x: max(maxCell.x, cell.x), y: max(maxCell.y, cell.y))
  }
}

extension LineIndex {
  /// Buckets lines `0..<lines.count`: one pass to find the classes and their
  /// cells, one to count each bucket, one to place the entries.
  mutating func build(_ lines: [Line]) {
    var stats = [LevelStats](repeating: LevelStats(), count: LineIndex.levelCount)
    var unbucketed: [Int32] = []
    for (position, line) in lines.enumerated() {
      if let placement = Placement(line) {
        stats[placement.level].include(placement.cell)
      } else {
        unbucketed.append(Int32(position))
      }
    }
    var classes: [SizeClass] = []
    var classOfLevel = [Int](repeating: -1, count: LineIndex.levelCount)
    var entryCount = 0
    for level in stats.indices where stats[level].count > 0 {
      classOfLevel[level] = classes.count
      classes.append(SizeClass(level: level, stats: stats[level], firstEntry: entryCount))
      entryCount += stats[level].count
    }
    for line in lines {
      if let placement = Placement(line) { classes[classOfLevel[placement.level]].count(placement.cell) }
    }
    for index in classes.indices { classes[index].finishCounting() }
    var entries = [Entry](repeating: Entry(line: 0, x0: 0, y0: 0, x1: 0, y1: 0), count: entryCount)
    for (position, line) in lines.enumerated() {
      guard let placement = Placement(line) else { continue }
      let sizeClass = classOfLevel[placement.level]
      let slot = classes[sizeClass].slot(for: placement.cell)
      entries[slot] = classes[sizeClass].entry(for: line, at: position, in: placement.cell)
    }
    for index in classes.indices { classes[index].finishPlacing(&entries) }
    self.classes = classes
    self.entries = entries
    self.unbucketed = unbucketed
  }
}
