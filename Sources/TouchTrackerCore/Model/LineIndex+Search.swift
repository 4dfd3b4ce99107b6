// How a query reads a size class: the cells in reach, bucket by bucket, each
// line first judged from its quantized end points (bytes read in order) and
// measured exactly only when it could beat the best so far.

extension SizeClass {
  /// Considers every line of this class that could be nearer to the search's
  /// point than its best so far.
  func visit(reachOf search: inout Search, entries: UnsafeBufferPointer<Entry>, lines: [Line]) {
    let point = search.point
    // A line whose box center is farther than this (on either axis) is out of reach;
    // the last term covers rounding in the cells' arithmetic.
    let reach = search.bestDistance + extent / 2 + extent / 1_024
    // The cells in reach, clipped to the class's (so they convert to Int).
    let x0 = max(((point.x - reach - origin.x) / cellSize).rounded(.down), 0)
    let x1 = min(((point.x + reach - origin.x) / cellSize).rounded(.down), Double(width - 1))
    let y0 = max(((point.y - reach - origin.y) / cellSize).rounded(.down), 0)
    let y1 = min(((point.y + reach - origin.y) / cellSize).rounded(.down), Double(height - 1))
    guard x0 <= x1, y0 <= y1 else { return }
    for y in Int(y0)...Int(y1) {
      for x in Int(x0)...Int(x1) {
        let bucket = y * width + x
        if starts[bucket] != starts[bucket + 1] {
          visit(bucket: bucket, at: frame(x: x, y: y), search: &search, entries: entries, lines: lines)
        }
      }
    }
  }

  /// Rules lines of one bucket out from their quantized end points; measures the rest exactly.
  private func visit(
    bucket: Int, at frame: Point, search: inout Search, entries: UnsafeBufferPointer<Entry>, lines: [Line]
  ) {
    let scale = 1 / unit
    let px = (search.point.x - frame.x) * scale
    let py = (search.point.y - frame.y) * scale
    var bestDistance = search.bestDistance
    var box = QuantizedBox(around: px, py, reach: bestDistance * scale + SizeClass.boxSlack)
    var lineReach = bestDistance * scale + SizeClass.lineSlack
    for index in Int(starts[bucket])..<Int(starts[bucket + 1]) {
      let entry = entries[index]
      // Every difference is negative when the line's quantized box is out of reach on that side.
      let x0 = Int(entry.ends & 0xff)
      let y0 = Int(entry.ends >> 8 & 0xff)
      let x1 = Int(entry.ends >> 16 & 0xff)
      let y1 = Int(entry.ends >> 24)
      // The bucket is sorted by left edge: every later line starts right of reach too.
      if min(x0, x1) > box.maxX { break }
      let outside = (max(x0, x1) &- box.minX) | (max(y0, y1) &- box.minY) | (box.maxY &- min(y0, y1))
      if outside < 0 { continue }
      let distanceSquared = quantizedDistanceSquared(px, py, Double(x0), Double(y0), Double(x1), Double(y1))
      if distanceSquared > lineReach * lineReach || entry.line == Entry.dead { continue }
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
    // Clamped to just outside the byte range, then rounded outward (a
    // positive number converts to Int by truncating, which is floor).
    func clamped(_ value: Double) -> Double { max(-1, min(256, value)) }
    minX = Int(clamped(x - reach) + 2) - 2
    maxX = 258 - Int(258 - clamped(x + reach))
    minY = Int(clamped(y - reach) + 2) - 2
    maxY = 258 - Int(258 - clamped(y + reach))
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
