/// The document format: `{"format": "touchtracker", "version": 1, "lines":
/// [...], "circles": [...]}` with lowercase `#rrggbb` colors and lines in the
/// order they were finished. See docs/DESIGN.md; tests depend on it.
public enum DocumentCoder {
  public static let formatName = "touchtracker"
  public static let version = 1.0
  /// The largest magnitude a coordinate, radius or width may have. With at
  /// most 4 decimals written (`JSONNumber`), every number in range survives a
  /// save and a load exactly: 13 significant digits fit a Double.
  public static let maximumMagnitude = 1_000_000_000.0

  /// Checks that a drawing can be written without changing it: every number
  /// finite and within `maximumMagnitude`. The error names the first one that is not.
  public static func validate(_ drawing: Drawing) throws(FormatError) {
    func check(_ value: Double, _ path: @autoclosure () -> String) throws(FormatError) {
      guard value.isFinite else { throw FormatError("Non-finite number at \(path())") }
      guard abs(value) <= maximumMagnitude else { throw FormatError("Number out of range at \(path())") }
    }
    for (index, line) in drawing.lines.enumerated() {
      try check(line.begin.x, "lines[\(index)].begin.x")
      try check(line.begin.y, "lines[\(index)].begin.y")
      try check(line.end.x, "lines[\(index)].end.x")
      try check(line.end.y, "lines[\(index)].end.y")
      try check(line.width, "lines[\(index)].width")
    }
    for (index, circle) in drawing.circles.enumerated() {
      try check(circle.center.x, "circles[\(index)].center.x")
      try check(circle.center.y, "circles[\(index)].center.y")
      try check(circle.radius, "circles[\(index)].radius")
      try check(circle.width, "circles[\(index)].width")
    }
  }

  public static func encode(_ drawing: Drawing) -> [UInt8] {
    var writer = JSONWriter()
    writer.raw("{\"format\":\"touchtracker\",\"version\":1,\"lines\":[")
    for (index, line) in drawing.lines.enumerated() {
      if index > 0 { writer.raw(",") }
      writer.raw("{\"begin\":")
      write(line.begin, to: &writer)
      writer.raw(",\"end\":")
      write(line.end, to: &writer)
      writer.raw(",\"color\":")
      writer.write(line.color.hex)
      writer.raw(",\"width\":")
      writer.write(line.width)
      writer.raw("}")
    }
    writer.raw("],\"circles\":[")
    for (index, circle) in drawing.circles.enumerated() {
      if index > 0 { writer.raw(",") }
      writer.raw("{\"center\":")
      write(circle.center, to: &writer)
      writer.raw(",\"radius\":")
      writer.write(circle.radius)
      writer.raw(",\"color\":")
      writer.write(circle.color.hex)
      writer.raw(",\"width\":")
      writer.write(circle.width)
      writer.raw("}")
    }
    writer.raw("]}")
    return writer.bytes
  }

  public static func encodeString(_ drawing: Drawing) -> String {
    String(decoding: encode(drawing), as: UTF8.self)
  }

  private static func write(_ point: Point, to writer: inout JSONWriter) {
    writer.raw("{\"x\":")
    writer.write(point.x)
    writer.raw(",\"y\":")
    writer.write(point.y)
    writer.raw("}")
  }

  public static func decode(_ text: String) throws(FormatError) -> Drawing {
    try decode(bytes: Array(text.utf8))
  }

  /// Reads a document, refusing anything that is not exactly the format:
  /// the error names the problem and its place (`lines[3].begin.x`).
  public static func decode(bytes: [UInt8]) throws(FormatError) -> Drawing {
    let value: JSONValue
    do {
      value = try JSONParser.parse(bytes: bytes)
    } catch {
      throw FormatError(error.message)
    }
    return try decode(value)
  }

  public static func decode(_ value: JSONValue) throws(FormatError) -> Drawing {
    let root = try JSONCursor(value, path: "").object()
    let format = try root.require("format")
    guard case .string(let name) = format.value, name == formatName else {
      throw FormatError("Unsupported format \(describe(format.value)); expected 'touchtracker'")
    }
    let versionField = try root.require("version")
    guard case .number(let number) = versionField.value, number == version else {
      throw FormatError("Unsupported version \(describe(versionField.value)); expected 1")
    }
    var drawing = Drawing()
    if let lines = root.member("lines") {
      for element in try lines.elements() {
        let line = try element.object()
        drawing.lines.append(
          Line(
            begin: try line.require("begin").point(), end: try line.require("end").point(),
            color: try color(line.require("color")), width: try width(line.require("width"))))
      }
    }
    if let circles = root.member("circles") {
      for element in try circles.elements() {
        let circle = try element.object()
        let radius = try circle.require("radius")
        guard try radius.number() >= 0 else { throw FormatError("Negative radius at \(radius.path)") }
        drawing.circles.append(
          Circle(
            center: try circle.require("center").point(), radius: try radius.number(),
            color: try color(circle.require("color")), width: try width(circle.require("width"))))
      }
    }
    try validate(drawing)
    return drawing
  }

  private static func color(_ field: JSONCursor) throws(FormatError) -> Color {
    let text = try field.string()
    guard let color = Color(hex: text) else {
      throw FormatError("Invalid color \(QuotedToken.quoted(text)) at \(field.path); expected '#rrggbb'")
    }
    return color
  }

  /// The smallest width the format writes (`JSONNumber.fractionDigits`
  /// decimals): a thinner one would be saved as 0 and refused on the next load.
  public static let minimumWidth = 0.0001

  private static func width(_ field: JSONCursor) throws(FormatError) -> Double {
    let width = try field.number()
    guard width > 0 else { throw FormatError("Width must be positive at \(field.path)") }
    guard width >= minimumWidth else { throw FormatError("Width must be at least 0.0001 at \(field.path)") }
    return width
  }

  private static func describe(_ value: JSONValue) -> String {
    switch value {
    case .string(let text): QuotedToken.quoted(text)
    case .number(let number): JSONNumber.format(number)
    default: value.typeName
    }
  }
}
