/// One bucketed line: its position in the drawing and its end points
/// quantized to a byte each within its bucket's area (see `SizeClass.unit`),
/// packed x0, y0, x1, y1 from the low byte up (one load, then shifts).
struct Entry {
  /// The line's position, or `dead`.
  var line: Int32
  var ends: UInt32

  /// The position of an entry whose line was removed or moved away: never a line's.
  static let dead: Int32 = -1

  init(line: Int32, x0: UInt8, y0: UInt8, x1: UInt8, y1: UInt8) {
    self.line = line
    ends = UInt32(x0) | UInt32(y0) << 8 | UInt32(x1) << 16 | UInt32(y1) << 24
  }

  /// The quantized box's left edge.
  var leftEdge: Int { Int(min(ends & 0xff, ends >> 16 & 0xff)) }
}

/// Where a line goes: its size class and its box's center. Nil for a line
/// with non-finite or enormous coordinates.
struct Placement {
  let level: Int
  let center: Point

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
    while LineIndex.extent(ofLevel: level) < size { level += 1 }
    self.level = level
    center = Point(x: (minX + maxX) / 2, y: (minY + maxY) / 2)
  }
}

/// How many lines a level holds and the rectangle their centers span.
struct LevelStats {
  var count = 0
  var minCenter = Point(x: .infinity, y: .infinity)
  var maxCenter = Point(x: -.infinity, y: -.infinity)

  mutating func include(_ center: Point) {
    count += 1
    minCenter = Point(x: min(minCenter.x, center.x), y: min(minCenter.y, center.y))
    maxCenter = Point(x: max(maxCenter.x, center.x), y: max(maxCenter.y, center.y))
  }
}

extension LineIndex {
  /// Buckets lines `0..<lines.count`: one pass to find the classes and the
  /// area their lines span, one to count each bucket, one to order the lines
  /// by their quantized left edge (a counting sort), one to place the entries
  /// in that order, so every bucket is sorted by left edge.
  mutating func build(_ lines: [Line]) {
    var stats = [LevelStats](repeating: LevelStats(), count: LineIndex.levelCount)
    var unbucketed: [Int32] = []
    for (position, line) in lines.enumerated() {
      if let placement = Placement(line) {
        stats[placement.level].include(placement.center)
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
    // Where each bucketed line goes, as (class, bucket, entry); the same arithmetic every time.
    // Not inlined: it is called twice, and the wasm's size matters more.
    @inline(never) func destination(of line: Line, at position: Int) -> (sizeClass: Int, bucket: Int, entry: Entry)? {
      guard let placement = Placement(line) else { return nil }
      let sizeClass = classOfLevel[placement.level]
      let bucket = classes[sizeClass].bucket(of: placement.center)
      return (sizeClass, bucket, classes[sizeClass].entry(for: line, at: position, inBucket: bucket))
    }
    // Count each bucket, and the lines by quantized left edge for a counting sort.
    var byEdge = [Int](repeating: 0, count: 257)
    var edges = [UInt8](repeating: 0, count: lines.count)
    for (position, line) in lines.enumerated() {
      guard let (sizeClass, bucket, entry) = destination(of: line, at: position) else {
        byEdge[1] += 1  // Ordered with the rest (at edge 0), placed nowhere.
        continue
      }
      classes[sizeClass].count(bucket)
      edges[position] = UInt8(entry.leftEdge)
      byEdge[entry.leftEdge + 1] += 1
    }
    for index in classes.indices { classes[index].finishCounting() }
    for edge in 1..<byEdge.count { byEdge[edge] += byEdge[edge - 1] }
    var order = [Int32](repeating: 0, count: lines.count)
    for (position, edge) in edges.enumerated() {
      order[byEdge[Int(edge)]] = Int32(position)
      byEdge[Int(edge)] += 1
    }
    // Placed in order of left edge, every bucket ends up sorted by it.
    var entries = [Entry](repeating: Entry(line: 0, x0: 0, y0: 0, x1: 0, y1: 0), count: entryCount)
    for position in order {
      guard let (sizeClass, bucket, entry) = destination(of: lines[Int(position)], at: Int(position)) else { continue }
      entries[classes[sizeClass].takeSlot(inBucket: bucket)] = entry
    }
    for index in classes.indices { classes[index].finishPlacing() }
    self.classes = classes
    self.entries = entries
    self.unbucketed = unbucketed
  }
}
