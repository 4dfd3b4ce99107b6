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
  /// Takes a finished `build` of `lines` (of all of them: nothing may
  /// have changed since it began).
  mutating func take(_ build: Build, lines: [Line]) {
    precondition(build.isDone && build.lineCount == lines.count)
    classes = build.classes
    entries = build.entries
    unbucketed = build.unbucketed
    buildCount += 1
    looseCount = 0
    deadCount = 0
    builtCount = lines.count
    setCount(lines.count)
    _checkInvariants(lines)
  }

  /// A build of the index of lines `0..<lineCount` done a slice at a time,
  /// so that building it for a big drawing is never one long task: the page
  /// advances it when idle, a few milliseconds a call
  /// (`DrawingModel.prepareLineIndex`). Four passes over the lines: one finds
  /// the classes and the area their lines span, one counts each bucket and
  /// the lines by quantized left edge, one orders the lines by that edge (a
  /// counting sort), one places the entries in that order, so every bucket
  /// is sorted by left edge. The lines must not change between calls.
  final class Build {
    enum Pass { case classes, counts, order, entries, done }

    let lineCount: Int
    // Unchecked: the passes' loops would check every access natively (none
    // overlaps: a build is advanced by one caller at a time).
    @exclusivity(unchecked) private var pass = Pass.classes
    /// How far the pass under way got: a position in the lines (or in `order`).
    @exclusivity(unchecked) private var cursor = 0
    @exclusivity(unchecked) private var stats = [LevelStats](repeating: LevelStats(), count: LineIndex.levelCount)
    @exclusivity(unchecked) private(set) var unbucketed: [Int32] = []
    @exclusivity(unchecked) private(set) var classes: [SizeClass] = []
    @exclusivity(unchecked) private var classOfLevel = [Int](repeating: -1, count: LineIndex.levelCount)
    @exclusivity(unchecked) private var entryCount = 0
    @exclusivity(unchecked) private var byEdge: [Int] = []
    @exclusivity(unchecked) private var edges: [UInt8] = []
    @exclusivity(unchecked) private var order: [Int32] = []
    @exclusivity(unchecked) private(set) var entries: [Entry] = []

    init(lineCount: Int) { self.lineCount = lineCount }

    var isDone: Bool { pass == .done }

    /// Where each bucketed line goes, as (class, bucket, entry); the same arithmetic every time.
    /// Not inlined: it is called twice, and the wasm's size matters more.
    @inline(never) private func destination(of line: Line, at position: Int) -> (
      sizeClass: Int, bucket: Int, entry: Entry
    )? {
      guard let placement = Placement(line) else { return nil }
      let sizeClass = classOfLevel[placement.level]
      let bucket = classes[sizeClass].bucket(of: placement.center)
      return (sizeClass, bucket, classes[sizeClass].entry(for: line, at: position, inBucket: bucket))
    }

    /// Goes on for at most `work` lines (at least one pass's end, if one
    /// is reached); true once the build is done.
    func advance(_ lines: [Line], by work: Int) -> Bool {
      var left = max(work, 1)
      while pass != .done && left > 0 {
        let end = cursor + min(left, lineCount - cursor)
        left -= end - cursor
        switch pass {
        case .classes:
          for position in cursor..<end {
            if let placement = Placement(lines[position]) {
              stats[placement.level].include(placement.center)
            } else {
              unbucketed.append(Int32(position))
            }
          }
        case .counts:
          // Count each bucket, and the lines by quantized left edge for a counting sort.
          for position in cursor..<end {
            guard let (sizeClass, bucket, entry) = destination(of: lines[position], at: position) else {
              byEdge[1] += 1  // Ordered with the rest (at edge 0), placed nowhere.
              continue
            }
            classes[sizeClass].count(bucket)
            edges[position] = UInt8(entry.leftEdge)
            byEdge[entry.leftEdge + 1] += 1
          }
        case .order:
          for position in cursor..<end {
            let edge = Int(edges[position])
            order[byEdge[edge]] = Int32(position)
            byEdge[edge] += 1
          }
        case .entries:
          // Placed in order of left edge, every bucket ends up sorted by it.
          for index in cursor..<end {
            let position = Int(order[index])
            guard let (sizeClass, bucket, entry) = destination(of: lines[position], at: position) else { continue }
            entries[classes[sizeClass].takeSlot(inBucket: bucket)] = entry
          }
        case .done: break
        }
        cursor = end
        if cursor == lineCount { finishPass() }
      }
      return pass == .done
    }

    private func finishPass() {
      cursor = 0
      switch pass {
      case .classes:
        for level in stats.indices where stats[level].count > 0 {
          classOfLevel[level] = classes.count
          classes.append(SizeClass(level: level, stats: stats[level], firstEntry: entryCount))
          entryCount += stats[level].count
        }
        byEdge = [Int](repeating: 0, count: 257)
        edges = [UInt8](repeating: 0, count: lineCount)
        pass = .counts
      case .counts:
        for index in classes.indices { classes[index].finishCounting() }
        for edge in 1..<byEdge.count { byEdge[edge] += byEdge[edge - 1] }
        order = [Int32](repeating: 0, count: lineCount)
        pass = .order
      case .order:
        edges = []
        entries = [Entry](repeating: Entry(line: 0, x0: 0, y0: 0, x1: 0, y1: 0), count: entryCount)
        pass = .entries
      case .entries:
        for index in classes.indices { classes[index].finishPlacing() }
        order = []
        byEdge = []
        pass = .done
      case .done: break
      }
    }
  }
}
