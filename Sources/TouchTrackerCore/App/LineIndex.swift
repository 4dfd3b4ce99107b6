/// Finds the line nearest to a point among very many, without looking at most of them.
///
/// A loose hierarchical grid: level k has square cells `baseCellSize * 2^k`
/// wide; a line goes to the level where its bounding box is no larger than a
/// cell, in the cell holding the box's center, so it lies within that cell
/// grown by half a cell on every side. A query visits, on each occupied level,
/// the few cells whose grown area is within reach. Buckets are singly linked
/// lists threaded through one `Int32` array, so the index costs a few bytes a
/// line instead of an array per cell.
///
/// Lines are identified by their position in the drawing. Appending is
/// incremental; any other change calls `invalidate()`, and the next query
/// rebuilds (removing from the middle of the lines shifts every later
/// position anyway).
public struct LineIndex {
  public static let baseCellSize = 32.0
  private static let levelCount = 40

  private var heads: [UInt64: Int32] = [:]
  private var nextInBucket: [Int32] = []
  private var occupiedLevels: [Int] = []
  private var isValid = true

  public init() {}

  public init(lines: [Line]) {
    rebuild(lines)
  }

  /// How many lines the index holds (when valid).
  public var count: Int { nextInBucket.count }

  public mutating func invalidate() { isValid = false }

  public mutating func rebuild(_ lines: [Line]) {
    heads.removeAll(keepingCapacity: true)
    nextInBucket.removeAll(keepingCapacity: true)
    nextInBucket.reserveCapacity(lines.count)
    occupiedLevels.removeAll()
    for line in lines { insert(line) }
    isValid = true
  }

  /// Adds the line at position `count`, the newest.
  public mutating func append(_ line: Line, lines: [Line]) {
    if !isValid || nextInBucket.count != lines.count - 1 {
      rebuild(lines)
    } else {
      insert(line)
    }
  }

  private mutating func insert(_ line: Line) {
    let box = line.segment.boundingBox
    let size = max(box.width, box.height)
    var level = 0
    var cell = LineIndex.baseCellSize
    while cell < size && level < LineIndex.levelCount - 1 {
      level += 1
      cell *= 2
    }
    let center = box.center
    let key = LineIndex.key(level: level, x: floorToInt(center.x / cell), y: floorToInt(center.y / cell))
    let position = Int32(nextInBucket.count)
    nextInBucket.append(heads[key] ?? -1)
    heads[key] = position
    if !occupiedLevels.contains(level) { occupiedLevels.append(level) }
  }

  /// The position of the line nearest to `point` whose distance is at most
  /// `radius`; among equally near lines, the newest (it is drawn on top).
  ///
  /// - Complexity: O(occupied levels + lines in the visited cells), independent of the total.
  public mutating func nearest(to point: Point, within radius: Double, in lines: [Line]) -> Int? {
    if !isValid || nextInBucket.count != lines.count { rebuild(lines) }
    guard point.isFinite else { return nil }
    var best: Int?
    var bestDistance = radius
    for level in occupiedLevels {
      let cell = LineIndex.baseCellSize * power(of: level)
      let reach = radius + cell / 2
      let x0 = floorToInt((point.x - reach) / cell)
      let x1 = floorToInt((point.x + reach) / cell)
      let y0 = floorToInt((point.y - reach) / cell)
      let y1 = floorToInt((point.y + reach) / cell)
      if (x1 - x0 + 1) * (y1 - y0 + 1) > heads.count {
        // A radius wider than the drawing: visiting every bucket is cheaper
        // than every cell in reach.
        for (key, head) in heads where Int(key >> 58) == level {
          visit(bucket: head, point: point, lines: lines, best: &best, bestDistance: &bestDistance)
        }
        continue
      }
      for cx in x0...x1 {
        for cy in y0...y1 {
          if let head = heads[LineIndex.key(level: level, x: cx, y: cy)] {
            visit(bucket: head, point: point, lines: lines, best: &best, bestDistance: &bestDistance)
          }
        }
      }
    }
    return best
  }

  private func visit(bucket head: Int32, point: Point, lines: [Line], best: inout Int?, bestDistance: inout Double) {
    var position = head
    while position >= 0 {
      let index = Int(position)
      let distance = lines[index].segment.distance(to: point)
      if distance < bestDistance || (distance == bestDistance && index > (best ?? -1)) {
        best = index
        bestDistance = distance
      }
      position = nextInBucket[index]
    }
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

  private static func key(level: Int, x: Int, y: Int) -> UInt64 {
    // 6 bits of level, 29 bits each of x and y (two's complement, masked).
    let mask: UInt64 = (1 << 29) - 1
    return UInt64(level) << 58 | (UInt64(bitPattern: Int64(x)) & mask) << 29 | (UInt64(bitPattern: Int64(y)) & mask)
  }

  private func power(of level: Int) -> Double {
    var value = 1.0
    for _ in 0..<level { value *= 2 }
    return value
  }
}

/// Rounds toward minus infinity, clamped to a range the grid keys can hold.
private func floorToInt(_ value: Double) -> Int {
  let clamped = max(-268_435_456, min(268_435_455, value))
  let truncated = Int(clamped)
  return Double(truncated) > clamped ? truncated - 1 : truncated
}
