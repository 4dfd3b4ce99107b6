// How a query reads a size class: the cells in reach, bucket by bucket, each
// line first judged from its quantized end points (bytes read in order) and
// measured exactly only when it could beat the best so far.

extension SizeClass {
  /// The cell holding `point`, if it is within the occupied ones. Its
  /// lines are the likeliest to be near, so a query looks there first: a
  /// small best distance early rules out more lines later.
  func homeCell(of point: Point) -> Cell? {
    let x = (point.x / cellSize).rounded(.down)
    let y = (point.y / cellSize).rounded(.down)
    guard x >= Double(minCell.x), x <= Double(maxCell.x), y >= Double(minCell.y), y <= Double(maxCell.y) else {
      return nil
    }
    return Cell(x: Int(x), y: Int(y))
  }

  /// Considers the lines of the cell holding the search's point.
  func visitHome(of search: inout Search, entries: UnsafeBufferPointer<Entry>, lines: UnsafeBufferPointer<Line>) {
    guard let cell = homeCell(of: search.point) else { return }
    let range: Range<Int>
    if isDense {
      let index = denseIndex(cell)
      range = Int(starts[index])..<Int(starts[index + 1])
    } else {
      guard let bucket = bucketOfCell[cell] else { return }
      range = Int(starts[bucket])..<Int(starts[bucket + 1])
    }
    visit(range, in: cell, search: &search, entries: entries, lines: lines)
  }

  /// Considers every line of this class that could be nearer to the search's
  /// point than its best so far, except those of its home cell (`visitHome`).
  func visit(reachOf search: inout Search, entries: UnsafeBufferPointer<Entry>, lines: UnsafeBufferPointer<Line>) {
    let point = search.point
    let home = homeCell(of: point) ?? Cell(x: .min, y: .min)
    // A line whose box center is farther than this (on either axis) is out of reach;
    // the last term covers rounding in the cells' arithmetic.
    let reach = search.bestDistance + extent / 2 + extent / 1_024
    // The cells in reach, clipped to the occupied ones (so they convert to Int).
    let x0 = max(((point.x - reach) / cellSize).rounded(.down), Double(minCell.x))
    let x1 = min(((point.x + reach) / cellSize).rounded(.down), Double(maxCell.x))
    let y0 = max(((point.y - reach) / cellSize).rounded(.down), Double(minCell.y))
    let y1 = min(((point.y + reach) / cellSize).rounded(.down), Double(maxCell.y))
    guard x0 <= x1, y0 <= y1 else { return }
    let (low, high) = (Cell(x: Int(x0), y: Int(y0)), Cell(x: Int(x1), y: Int(y1)))
    if isDense {
      for y in low.y...high.y {
        for x in low.x...high.x {
          let index = denseIndex(Cell(x: x, y: y))
          let range = Int(starts[index])..<Int(starts[index + 1])
          if !range.isEmpty && (x != home.x || y != home.y) {
            visit(range, in: Cell(x: x, y: y), search: &search, entries: entries, lines: lines)
          }
        }
      }
    } else if (x1 - x0 + 1) * (y1 - y0 + 1) > Double(bucketCells.count) {
      // More cells in reach than buckets: look at every bucket instead.
      for (bucket, cell) in bucketCells.enumerated()
      where cell.x >= low.x && cell.x <= high.x && cell.y >= low.y && cell.y <= high.y && cell != home {
        visit(Int(starts[bucket])..<Int(starts[bucket + 1]), in: cell, search: &search, entries: entries, lines: lines)
      }
    } else {
      for y in low.y...high.y {
        for x in low.x...high.x {
          guard x != home.x || y != home.y, let bucket = bucketOfCell[Cell(x: x, y: y)] else { continue }
          visit(
            Int(starts[bucket])..<Int(starts[bucket + 1]), in: Cell(x: x, y: y), search: &search, entries: entries,
            lines: lines)
        }
      }
    }
  }

  /// Rules lines of one bucket out from their quantized end points; measures the rest exactly.
  @inline(__always)
  private func visit(
    _ range: Range<Int>, in cell: Cell, search: inout Search, entries: UnsafeBufferPointer<Entry>,
    lines: UnsafeBufferPointer<Line>
  ) {
    let frame = origin(of: cell)
    let scale = 1 / unit
    let px = (search.point.x - frame.x) * scale
    let py = (search.point.y - frame.y) * scale
    var bestDistance = search.bestDistance
    var box = QuantizedBox(around: px, py, reach: bestDistance * scale + SizeClass.boxSlack)
    var lineReach = bestDistance * scale + SizeClass.lineSlack
    for index in range {
      let entry = entries[index]
      // Every difference is negative when the line's quantized box is out of reach on that side.
      let x0 = Int(entry.x0)
      let y0 = Int(entry.y0)
      let x1 = Int(entry.x1)
      let y1 = Int(entry.y1)
      // The bucket is sorted by left edge: every later line starts right of reach too.
      if min(x0, x1) > box.maxX { break }
      let outside = (max(x0, x1) &- box.minX) | (max(y0, y1) &- box.minY) | (box.maxY &- min(y0, y1))
      if outside < 0 { continue }
      let distanceSquared = quantizedDistanceSquared(px, py, Double(x0), Double(y0), Double(x1), Double(y1))
      if distanceSquared > lineReach * lineReach { continue }
      search.consider(Int(entry.line), in: lines)
      if search.bestDistance != bestDistance {
        bestDistance = search.bestDistance
        box = QuantizedBox(around: px, py, reach: bestDistance * scale + SizeClass.boxSlack)
        lineReach = bestDistance * scale + SizeClass.lineSlack
      }
    }
  }
}

/// The square, in quantization steps, that a line's quantized box must touch to be in reach.
private struct QuantizedBox {
  let minX: Int
  let maxX: Int
  let minY: Int
  let maxY: Int

  init(around x: Double, _ y: Double, reach: Double) {
    // Clamped to just outside the byte range (so the values fit an Int), then
    // rounded outward; converting a positive number truncates, which is floor.
    func floor(_ value: Double) -> Int { Int(max(-1, min(256, value)) + 2) - 2 }
    func ceiling(_ value: Double) -> Int {
      let clamped = max(-1, min(256, value)) + 2
      let truncated = Int(clamped)
      return (Double(truncated) < clamped ? truncated + 1 : truncated) - 2
    }
    minX = floor(x - reach)
    maxX = ceiling(x + reach)
    minY = floor(y - reach)
    maxY = ceiling(y + reach)
  }
}

/// The squared distance from (px, py) to the segment (ax, ay)-(bx, by).
@inline(__always)
private func quantizedDistanceSquared(
  _ px: Double, _ py: Double, _ ax: Double, _ ay: Double, _ bx: Double, _ by: Double
) -> Double {
  let dx = bx - ax
  let dy = by - ay
  let lengthSquared = dx * dx + dy * dy
  var t = 0.0
  if lengthSquared > 0 { t = max(0, min(1, ((px - ax) * dx + (py - ay) * dy) / lengthSquared)) }
  let ex = ax + dx * t - px
  let ey = ay + dy * t - py
  return ex * ex + ey * ey
}
