/// The document format: `{"format": "touchtracker", "version": 1, "lines":
/// [...], "circles": [...]}` with lowercase `#rrggbb` colors and lines in the
/// order they were finished. Every shape has an `"id"` (`ShapeID`); a
/// version-1 document written before ids gets them on reading
/// (`assignIDs`). See docs/DESIGN.md; tests depend on it.
public enum DocumentCoder {
  public static let formatName = "touchtracker"
  public static let version = 1.0
  /// The largest magnitude a coordinate, radius or width may have. With at
  /// most 4 decimals written (`NumberText`), every number in range survives a
  /// save and a load exactly: 13 significant digits fit a Double.
  public static let maximumMagnitude = 1_000_000_000.0

  /// Checks that a drawing can be written without changing it: every number
  /// finite and within `maximumMagnitude`. The error names the first one
  /// that is not, under `path` (a change's place in a list, say).
  public static func validate(_ drawing: Drawing, path: String = "") throws(FormatError) {
    for (index, line) in drawing.lines.enumerated() {
      try check(line.begin.x, path, "lines", index, "begin.x")
      try check(line.begin.y, path, "lines", index, "begin.y")
      try check(line.end.x, path, "lines", index, "end.x")
      try check(line.end.y, path, "lines", index, "end.y")
      try check(line.width, path, "lines", index, "width")
    }
    for (index, circle) in drawing.circles.enumerated() {
      try check(circle.center.x, path, "circles", index, "center.x")
      try check(circle.center.y, path, "circles", index, "center.y")
      try check(circle.radius, path, "circles", index, "radius")
      try check(circle.width, path, "circles", index, "width")
    }
  }

  /// Refuses a number a document cannot hold exactly; the path is spelled
  /// (`lines[3].begin.x` under `path`) only when it is refused. One function
  /// for every field keeps the wasm small.
  private static func check(
    _ value: Double, _ path: String, _ shapes: StaticString, _ index: Int, _ field: StaticString
  ) throws(FormatError) {
    guard !isWritable(value) else { return }
    try checkNumber(value, shapePath(path, shapes, index, field))
  }

  private static func duplicate(_ id: ShapeID, _ shapes: StaticString, _ index: Int) -> FormatError {
    FormatError("Duplicate id \(id.rawValue) at \(shapePath("", shapes, index, "id"))")
  }

  /// `shapes[index].field` under `path` (`changes[2].lines[0].id`).
  static func shapePath(_ path: String, _ shapes: StaticString, _ index: Int, _ field: StaticString) -> String {
    "\(path.isEmpty ? "" : path + ".")\(shapes)[\(index)].\(field)"
  }

  private static func isWritable(_ value: Double) -> Bool { value.isFinite && abs(value) <= maximumMagnitude }

  /// Refuses a number a document cannot hold exactly.
  static func checkNumber(_ value: Double, _ path: @autoclosure () -> String) throws(FormatError) {
    guard value.isFinite else { throw FormatError("Non-finite number at \(path())") }
    guard abs(value) <= maximumMagnitude else { throw FormatError("Number out of range at \(path())") }
  }

  public static func encode(_ drawing: Drawing) -> [UInt8] {
    var writer = JSONWriter()
    writer.raw("{\"format\":\"touchtracker\",\"version\":1,\"lines\":[")
    for (index, line) in drawing.lines.enumerated() {
      if index > 0 { writer.raw(",") }
      write(line, to: &writer)
    }
    writer.raw("],\"circles\":[")
    for (index, circle) in drawing.circles.enumerated() {
      if index > 0 { writer.raw(",") }
      write(circle, to: &writer)
    }
    writer.raw("]}")
    return writer.bytes
  }

  /// One line object; `"id"` first when the line has one.
  static func write(_ line: Line, to writer: inout JSONWriter) {
    writer.raw("{")
    writeID(line.id, to: &writer)
    writer.raw("\"begin\":")
    write(line.begin, to: &writer)
    writer.raw(",\"end\":")
    write(line.end, to: &writer)
    writer.raw(",\"color\":")
    writer.write(line.color.hex)
    writer.raw(",\"width\":")
    writer.write(line.width)
    writer.raw("}")
  }

  /// One circle object; `"id"` first when the circle has one.
  static func write(_ circle: Circle, to writer: inout JSONWriter) {
    writer.raw("{")
    writeID(circle.id, to: &writer)
    writer.raw("\"center\":")
    write(circle.center, to: &writer)
    writer.raw(",\"radius\":")
    writer.write(circle.radius)
    writer.raw(",\"color\":")
    writer.write(circle.color.hex)
    writer.raw(",\"width\":")
    writer.write(circle.width)
    writer.raw("}")
  }

  private static func writeID(_ id: ShapeID, to writer: inout JSONWriter) {
    guard id.isValid else { return }
    writer.raw("\"id\":")
    writer.write(Double(id.rawValue))
    writer.raw(",")
  }

  public static func encodeString(_ drawing: Drawing) -> String {
    String(decoding: encode(drawing), as: UTF8.self)
  }

  static func write(_ point: Point, to writer: inout JSONWriter) {
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
  ///
  /// Documents in the shape `encode` writes are read straight into lines
  /// (`DocumentReader`); anything else goes through a JSON value tree,
  /// which accepts every valid document and names every problem.
  public static func decode(bytes: [UInt8]) throws(FormatError) -> Drawing {
    var reader = DocumentReader(bytes: bytes)
    if let drawing = try? reader.read() { return try checked(drawing) }
    return try decodeThroughTree(bytes: bytes)
  }

  /// Reads a document through a JSON value tree only: for one `DocumentReader`
  /// already gave up on (`decode(chunksFrom:)` returned nil), so it is not read twice.
  public static func decodeThroughTree(bytes: [UInt8]) throws(FormatError) -> Drawing {
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
      for element in try lines.elements() { drawing.lines.append(try line(element)) }
    }
    if let circles = root.member("circles") {
      for element in try circles.elements() { drawing.circles.append(try circle(element)) }
    }
    return try checked(drawing)
  }

  /// Reads a document from `source` a chunk at a time (it fills the buffer
  /// it is given and returns how many bytes it wrote, 0 at the end), holding
  /// only the drawing and one chunk: how the CLI opens a million lines.
  ///
  /// Returns nil when the document is not in the shape `encode` writes
  /// (`DocumentReader`), valid or not: decode its whole bytes with
  /// `decodeThroughTree(bytes:)` then, for the drawing or the exact error.
  public static func decode(
    chunksFrom source: @escaping (UnsafeMutableBufferPointer<UInt8>) -> Int
  ) throws(FormatError) -> Drawing? {
    var reader = DocumentReader(source: source)
    guard let drawing = try? reader.read() else { return nil }
    return try checked(drawing)
  }

  /// What every decoded drawing goes through: numbers in range, ids unique and assigned.
  private static func checked(_ drawing: consuming Drawing) throws(FormatError) -> Drawing {
    try validate(drawing)
    try assignIDs(in: &drawing)
    return drawing
  }

  /// A line object (`"id"` optional: unassigned without one).
  static func line(_ element: JSONCursor) throws(FormatError) -> Line {
    let line = try element.object()
    return Line(
      id: try id(line.member("id")), begin: try line.require("begin").point(), end: try line.require("end").point(),
      color: try color(line.require("color")), width: try width(line.require("width")))
  }

  /// A circle object (`"id"` optional: unassigned without one).
  static func circle(_ element: JSONCursor) throws(FormatError) -> Circle {
    let circle = try element.object()
    let radius = try circle.require("radius")
    guard try radius.number() >= 0 else { throw FormatError("Negative radius at \(radius.path)") }
    return Circle(
      id: try id(circle.member("id")), center: try circle.require("center").point(), radius: try radius.number(),
      color: try color(circle.require("color")), width: try width(circle.require("width")))
  }

  /// A shape id: an integer from 1 to 2^53 - 1; unassigned when absent.
  static func id(_ field: JSONCursor?) throws(FormatError) -> ShapeID {
    guard let field else { return .unassigned }
    let number = try field.number()
    guard number >= 1, number <= Double(ShapeID.maximum.rawValue), number == number.rounded(.towardZero) else {
      // An integer is named with all its digits (2^64 as 18446744073709551616, not 9e18).
      let text = number == number.rounded(.towardZero) ? JSONNumber.exactInteger(number) : NumberText.format(number)
      throw FormatError(
        "Invalid id \(text) at \(field.path); expected an integer from 1 to \(ShapeID.maximum.rawValue)")
    }
    return ShapeID(rawValue: UInt64(number))
  }

  /// Refuses a document that names two shapes alike, and gives every shape
  /// without an id the next one after the highest in the document, in
  /// document order (lines, then circles): a version-1 document without ids
  /// gets 1, 2, 3... wherever it is opened, so every reader agrees on them.
  static func assignIDs(in drawing: inout Drawing) throws(FormatError) {
    var seen = ShapeIDSet(capacity: drawing.lines.count + drawing.circles.count)
    var highest: UInt64 = 0
    var missing = 0
    for (index, line) in drawing.lines.enumerated() {
      if !line.id.isValid {
        missing += 1
      } else if !seen.insert(line.id) {
        throw duplicate(line.id, "lines", index)
      } else {
        highest = max(highest, line.id.rawValue)
      }
    }
    for (index, circle) in drawing.circles.enumerated() {
      if !circle.id.isValid {
        missing += 1
      } else if !seen.insert(circle.id) {
        throw duplicate(circle.id, "circles", index)
      } else {
        highest = max(highest, circle.id.rawValue)
      }
    }
    guard missing > 0 else { return }
    guard UInt64(missing) <= ShapeID.maximum.rawValue - highest else {
      throw FormatError("No ids left for the shapes without one: the highest id is \(highest)")
    }
    var next = highest
    for index in drawing.lines.indices where !drawing.lines[index].id.isValid {
      next += 1
      drawing.lines[index].id = ShapeID(rawValue: next)
    }
    for index in drawing.circles.indices where !drawing.circles[index].id.isValid {
      next += 1
      drawing.circles[index].id = ShapeID(rawValue: next)
    }
  }

  static func color(_ field: JSONCursor) throws(FormatError) -> Color {
    let text = try field.string()
    guard let color = Color(hex: text) else {
      throw FormatError("Invalid color \(QuotedToken.quoted(text)) at \(field.path); expected '#rrggbb'")
    }
    return color
  }

  /// The smallest width the format writes (`NumberText.fractionDigits`
  /// decimals): a thinner one would be saved as 0 and refused on the next load.
  public static let minimumWidth = 0.0001

  static func width(_ field: JSONCursor) throws(FormatError) -> Double {
    let width = try field.number()
    guard width > 0 else { throw FormatError("Width must be positive at \(field.path)") }
    guard width >= minimumWidth else { throw FormatError("Width must be at least 0.0001 at \(field.path)") }
    return width
  }

  private static func describe(_ value: JSONValue) -> String {
    switch value {
    case .string(let text): QuotedToken.quoted(text)
    case .number(let number): NumberText.format(number)
    default: value.typeName
    }
  }
}
