/// The drawing in words, for screen readers (the page's description of the
/// canvas, read politely as it changes): how many lines and circles there
/// are, the focused or selected shape's place, ends, color and length, and
/// the line being drawn with the keyboard. Coordinates are the drawing's
/// points, rounded.
extension DrawView {
  public var accessibilityDescription: String {
    var text = DrawView.counted(lines: drawing.lines.count, circles: drawing.circles.count)
    if let line = keyboardLine {
      if let first = line.firstEnd {
        let length = Int(first.distance(to: line.cursor).rounded())
        text +=
          " Drawing a line from \(DrawView.spoken(first)) to \(DrawView.spoken(line.cursor)), \(length) points long:"
          + " arrows move this end, Enter adds the line, Escape cancels."
      } else {
        text +=
          " Drawing a line: the cursor is at \(DrawView.spoken(line.cursor));"
          + " arrows move it, Enter fixes the first end, Escape cancels."
      }
      return text
    }
    let focused = focusedShape()
    if let shape = focused ?? selectedShape {
      let selected = shape.isCircle ? selectedCircleIndex == shape.index : selectedLineIndex == shape.index
      text += focused == nil ? " Selected: " : " Focused: "
      text += describe(shape)
      if focused != nil && selected { text += " Selected: arrows move it, Delete deletes it, C recolors it." }
    }
    return text
  }

  /// The selected shape, if any.
  var selectedShape: (isCircle: Bool, index: Int)? {
    if let index = selectedLineIndex, drawing.lines.indices.contains(index) { return (false, index) }
    if let index = selectedCircleIndex, drawing.circles.indices.contains(index) { return (true, index) }
    return nil
  }

  private func describe(_ shape: (isCircle: Bool, index: Int)) -> String {
    if shape.isCircle {
      let circle = drawing.circles[shape.index]
      return "circle \(shape.index + 1) of \(drawing.circles.count), centered at \(DrawView.spoken(circle.center)),"
        + " radius \(Int(circle.radius.rounded())), \(DrawView.colorName(circle.color))."
    }
    let line = drawing.lines[shape.index]
    return "line \(shape.index + 1) of \(drawing.lines.count), from \(DrawView.spoken(line.begin))"
      + " to \(DrawView.spoken(line.end)), \(DrawView.colorName(line.color)),"
      + " \(Int(line.segment.length.rounded())) points long."
  }

  /// "3 lines and 1 circle."
  static func counted(lines: Int, circles: Int) -> String {
    func plural(_ count: Int, _ noun: String) -> String { count == 1 ? "1 \(noun)" : "\(count) \(noun)s" }
    switch (lines, circles) {
    case (0, 0): return "No lines or circles yet."
    case (_, 0): return plural(lines, "line") + "."
    case (0, _): return plural(circles, "circle") + "."
    default: return plural(lines, "line") + " and " + plural(circles, "circle") + "."
    }
  }

  /// "120, 80": a point as a screen reader reads it.
  static func spoken(_ point: Point) -> String {
    "\(Int(point.x.rounded())), \(Int(point.y.rounded()))"
  }

  /// The palette's name for one of its colors ("blue"), else the name of the
  /// nearest hue ("yellow", "cyan"), or black, gray or white.
  public static func colorName(_ color: Color) -> String {
    for choice in PaletteView.choices where choice.color == color {
      // ASCII only (the titles are): `lowercased()` would bring Unicode's case tables into the wasm.
      return String(decoding: choice.title.utf8.map { $0 >= 65 && $0 <= 90 ? $0 + 32 : $0 }, as: UTF8.self)
    }
    let (red, green, blue) = (Int(color.red), Int(color.green), Int(color.blue))
    let high = max(red, green, blue)
    let low = min(red, green, blue)
    if high - low < 32 { return high < 64 ? "black" : high > 208 ? "white" : "gray" }
    let spread = Double(high - low)
    var hue: Double
    if high == red {
      hue = 60 * Double(green - blue) / spread
    } else if high == green {
      hue = 60 * (2 + Double(blue - red) / spread)
    } else {
      hue = 60 * (4 + Double(red - green) / spread)
    }
    if hue < 0 { hue += 360 }
    let names: [(below: Double, name: String)] = [
      (15, "red"), (45, "orange"), (70, "yellow"), (160, "green"), (200, "cyan"), (260, "blue"), (290, "purple"),
      (335, "magenta"), (361, "red"),
    ]
    return names.first { hue < $0.below }?.name ?? "red"
  }
}
