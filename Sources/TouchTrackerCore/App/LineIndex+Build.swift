/// One bucketed line: its position in the drawing and its end points
/// quantized to a byte each within its bucket's area (see `SizeClass.unit`).
struct Entry {
  var line: Int32
  var x0: UInt8
  var y0: UInt8
  var x1: UInt8
  var y1: UInt8
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
  /// area their lines span, one to count each bucket, one to place the
  /// entries. (Sorting buckets by left edge would let a query stop early,
  /// ~15% faster, but costs 1 KB of wasm the 200 KB budget does not have.)
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
    for (position, line) in lines.enumerated() {
      if let (sizeClass, bucket, _) = destination(of: line, at: position) { classes[sizeClass].count(bucket) }
    }
    for index in classes.indices { classes[index].finishCounting() }
    var entries = [Entry](repeating: Entry(line: 0, x0: 0, y0: 0, x1: 0, y1: 0), count: entryCount)
    for (position, line) in lines.enumerated() {
      guard let (sizeClass, bucket, entry) = destination(of: line, at: position) else { continue }
      entries[classes[sizeClass].takeSlot(inBucket: bucket)] = entry
    }
    for index in classes.indices { classes[index].finishPlacing() }
    self.classes = classes
    self.entries = entries
    self.unbucketed = unbucketed
  }
}
