import Foundation
import TouchTrackerCore
import TouchTrackerStore

/// The small picture of a drawing in the drawings list
/// (`GET /api/drawings/NAME/thumbnail`): an SVG of `width` x `height` with
/// the drawing fitted into it, never enlarged past half its size.
///
/// Its cost is bounded whatever the drawing's size: a drawing whose summary
/// counts more than `shapeLimit` shapes is not read at all (the picture
/// says how many lines it has instead), and at most `segmentLimit` shapes
/// are written, after lines that land on the same rounded thumbnail
/// coordinates (a dense scribble) are written once.
enum Thumbnail {
  static let width = 120.0
  static let height = 90.0
  static let shapeLimit = 20_000
  static let segmentLimit = 4_000
  /// The canvas's gray (`Web/style.css`).
  static let background = "#c8c8c8"

  /// Whether a drawing with this summary is read to be drawn.
  static func draws(_ summary: DrawingSummary) -> Bool {
    summary.lineCount + summary.circleCount <= shapeLimit
  }

  static func svg(of drawing: Drawing) -> String {
    var svg = header()
    guard let bounds = bounds(of: drawing) else { return svg + "</svg>" }
    let margin = 4.0
    let fit = min(
      (width - 2 * margin) / max(bounds.maxX - bounds.minX, 1),
      (height - 2 * margin) / max(bounds.maxY - bounds.minY, 1))
    let scale = min(fit, 0.5)
    let offsetX = (width - (bounds.maxX - bounds.minX) * scale) / 2 - bounds.minX * scale
    let offsetY = (height - (bounds.maxY - bounds.minY) * scale) / 2 - bounds.minY * scale
    func x(_ value: Double) -> String { number(value * scale + offsetX) }
    func y(_ value: Double) -> String { number(value * scale + offsetY) }
    func stroke(_ width: Double) -> String { number(max(0.5, width * scale)) }

    // One path per color and width, each segment once.
    var paths: [String: String] = [:]
    var order: [String] = []
    var seen = Set<String>()
    var written = 0
    for line in drawing.lines where written < segmentLimit {
      let segment = "M\(x(line.begin.x)) \(y(line.begin.y))L\(x(line.end.x)) \(y(line.end.y))"
      let style = "\(line.color.hex)|\(stroke(line.width))"
      guard seen.insert(style + segment).inserted else { continue }
      if paths[style] == nil { order.append(style) }
      paths[style, default: ""] += segment
      written += 1
    }
    for style in order {
      let parts = style.split(separator: "|")
      svg += "<path stroke=\"\(parts[0])\" stroke-width=\"\(parts[1])\" d=\"\(paths[style]!)\"/>"
    }
    for circle in drawing.circles where written < segmentLimit {
      svg +=
        "<circle cx=\"\(x(circle.center.x))\" cy=\"\(y(circle.center.y))\" r=\"\(number(circle.radius * scale))\""
        + " stroke=\"\(circle.color.hex)\" stroke-width=\"\(stroke(circle.width))\"/>"
      written += 1
    }
    return svg + "</svg>"
  }

  /// For a drawing too large to read for a picture: how many lines it has.
  static func placeholder(for summary: DrawingSummary) -> String {
    header()
      + "<text x=\"60\" y=\"50\" text-anchor=\"middle\" font-family=\"sans-serif\" font-size=\"11\" fill=\"#333333\""
      + " stroke=\"none\">\(summary.lineCount) lines</text></svg>"
  }

  private static func header() -> String {
    "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(Int(width)) \(Int(height))\""
      + " width=\"\(Int(width))\" height=\"\(Int(height))\" fill=\"none\" stroke-linecap=\"round\">"
      + "<rect width=\"100%\" height=\"100%\" fill=\"\(background)\" stroke=\"none\"/>"
  }

  private struct Bounds {
    var minX, minY, maxX, maxY: Double
  }

  private static func bounds(of drawing: Drawing) -> Bounds? {
    var bounds: Bounds?
    func include(_ x: Double, _ y: Double, _ pad: Double) {
      guard x.isFinite, y.isFinite else { return }
      guard var b = bounds else {
        bounds = Bounds(minX: x - pad, minY: y - pad, maxX: x + pad, maxY: y + pad)
        return
      }
      b.minX = min(b.minX, x - pad)
      b.minY = min(b.minY, y - pad)
      b.maxX = max(b.maxX, x + pad)
      b.maxY = max(b.maxY, y + pad)
      bounds = b
    }
    for line in drawing.lines {
      include(line.begin.x, line.begin.y, line.width / 2)
      include(line.end.x, line.end.y, line.width / 2)
    }
    for circle in drawing.circles {
      include(circle.center.x, circle.center.y, circle.radius + circle.width / 2)
    }
    return bounds
  }

  /// Half-unit precision: finer than a thumbnail's pixel, and short.
  private static func number(_ value: Double) -> String {
    let rounded = (value * 2).rounded() / 2
    return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
  }
}
