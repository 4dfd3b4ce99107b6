/// Changes as JSON (docs/DESIGN.md, "Changes"):
///
/// ```
/// {"op": "add", "lines": [LINE, ...], "circles": [CIRCLE, ...], "at": 3}
/// {"op": "delete", "line": ID}        {"op": "delete", "circle": ID}
/// {"op": "move", "line": ID, "begin": {"x": 1, "y": 2}, "end": {"x": 3, "y": 4}}
/// {"op": "move", "circle": ID, "center": {"x": 1, "y": 2}}
/// {"op": "recolor", "line": ID, "color": "#rrggbb"}   {"op": "recolor", "circle": ID, "color": "#rrggbb"}
/// {"op": "clear"}
/// ```
///
/// LINE and CIRCLE are the document's objects with a required `"id"`; an
/// add's `lines`, `circles` and `at` are optional. Other keys are ignored
/// (the page's records carry `"bounds"`, the rectangle a change touched).
/// A list is `{"changes": [CHANGE, ...]}`.
public enum ChangeCoder {
  public static func encode(_ change: Change, bounds: Rect? = nil) -> [UInt8] {
    var writer = JSONWriter()
    write(change, bounds: bounds, to: &writer)
    return writer.bytes
  }

  /// `{"changes":[...]}`.
  public static func encodeList(_ changes: [Change]) -> [UInt8] {
    var writer = JSONWriter()
    writer.raw("{\"changes\":[")
    for (index, change) in changes.enumerated() {
      if index > 0 { writer.raw(",") }
      write(change, bounds: nil, to: &writer)
    }
    writer.raw("]}")
    return writer.bytes
  }

  static func write(_ change: Change, bounds: Rect?, to writer: inout JSONWriter) {
    switch change {
    case .add(let lines, let circles, let position):
      writer.raw("{\"op\":\"add\"")
      if let position {
        writer.raw(",\"at\":")
        writer.write(Double(position))
      }
      if !lines.isEmpty {
        writer.raw(",\"lines\":[")
        for (index, line) in lines.enumerated() {
          if index > 0 { writer.raw(",") }
          DocumentCoder.write(line, to: &writer)
        }
        writer.raw("]")
      }
      if !circles.isEmpty {
        writer.raw(",\"circles\":[")
        for (index, circle) in circles.enumerated() {
          if index > 0 { writer.raw(",") }
          DocumentCoder.write(circle, to: &writer)
        }
        writer.raw("]")
      }
    case .deleteLine(let id):
      writer.raw("{\"op\":\"delete\",\"line\":")
      writer.write(Double(id.rawValue))
    case .deleteCircle(let id):
      writer.raw("{\"op\":\"delete\",\"circle\":")
      writer.write(Double(id.rawValue))
    case .moveLine(let id, let begin, let end):
      writer.raw("{\"op\":\"move\",\"line\":")
      writer.write(Double(id.rawValue))
      writer.raw(",\"begin\":")
      DocumentCoder.write(begin, to: &writer)
      writer.raw(",\"end\":")
      DocumentCoder.write(end, to: &writer)
    case .moveCircle(let id, let center):
      writer.raw("{\"op\":\"move\",\"circle\":")
      writer.write(Double(id.rawValue))
      writer.raw(",\"center\":")
      DocumentCoder.write(center, to: &writer)
    case .recolor(let shape, let color):
      switch shape {
      case .line(let id):
        writer.raw("{\"op\":\"recolor\",\"line\":")
        writer.write(Double(id.rawValue))
      case .circle(let id):
        writer.raw("{\"op\":\"recolor\",\"circle\":")
        writer.write(Double(id.rawValue))
      }
      writer.raw(",\"color\":")
      writer.write(color.hex)
    case .clear:
      writer.raw("{\"op\":\"clear\"")
    }
    if let bounds {
      writer.raw(",\"bounds\":{\"x\":")
      writer.write(bounds.origin.x)
      writer.raw(",\"y\":")
      writer.write(bounds.origin.y)
      writer.raw(",\"width\":")
      writer.write(bounds.size.width)
      writer.raw(",\"height\":")
      writer.write(bounds.size.height)
      writer.raw("}")
    }
    writer.raw("}")
  }

  /// What `decode` refuses, checked on changes made in code too (numbers
  /// the format cannot hold, shapes without an id, a negative position),
  /// and one thing it lets through: an add naming the same id twice, which
  /// would leave two shapes with one id in the drawing, a document no
  /// reader accepts. `path` names the change in errors (`changes[3]`).
  public static func validate(_ change: Change, path: String) throws(FormatError) {
    switch change {
    case .add(let lines, let circles, let position):
      try DocumentCoder.validate(Drawing(lines: lines, circles: circles), path: path)
      if let position, position < 0 {
        throw FormatError("Invalid position \(position) at \(path).at; expected an integer >= 0")
      }
      var seen = ShapeIDSet(capacity: lines.count + circles.count)
      for (index, line) in lines.enumerated() {
        try check(line.id, width: line.width, radius: 0, "\(path).lines[\(index)]", &seen)
      }
      for (index, circle) in circles.enumerated() {
        try check(circle.id, width: circle.width, radius: circle.radius, "\(path).circles[\(index)]", &seen)
      }
    case .deleteLine(let id), .deleteCircle(let id):
      guard id.isValid else { throw FormatError("Invalid id \(id.rawValue) at \(path)") }
    case .moveLine(let id, let begin, let end):
      guard id.isValid else { throw FormatError("Invalid id \(id.rawValue) at \(path).line") }
      try checkCoordinates([(begin.x, "begin.x"), (begin.y, "begin.y"), (end.x, "end.x"), (end.y, "end.y")], path)
    case .moveCircle(let id, let center):
      guard id.isValid else { throw FormatError("Invalid id \(id.rawValue) at \(path).circle") }
      try checkCoordinates([(center.x, "center.x"), (center.y, "center.y")], path)
    case .recolor(.line(let id), _):
      guard id.isValid else { throw FormatError("Invalid id \(id.rawValue) at \(path).line") }
    case .recolor(.circle(let id), _):
      guard id.isValid else { throw FormatError("Invalid id \(id.rawValue) at \(path).circle") }
    case .clear:
      break
    }
  }

  /// A move's coordinates, each finite and within what a document holds.
  private static func checkCoordinates(_ values: [(Double, String)], _ path: String) throws(FormatError) {
    for (value, name) in values {
      guard value.isFinite else { throw FormatError("Non-finite number at \(path).\(name)") }
      guard abs(value) <= DocumentCoder.maximumMagnitude else {
        throw FormatError("Number out of range at \(path).\(name)")
      }
    }
  }

  private static func check(
    _ id: ShapeID, width: Double, radius: Double, _ path: String, _ seen: inout ShapeIDSet
  ) throws(FormatError) {
    guard id.isValid else { throw FormatError("Missing 'id' at \(path)") }
    guard seen.insert(id) else { throw FormatError("Duplicate id \(id.rawValue) at \(path).id") }
    guard width > 0 else { throw FormatError("Width must be positive at \(path).width") }
    guard radius >= 0 else { throw FormatError("Negative radius at \(path).radius") }
  }

  /// One change object. In the shape `encode` writes it is read straight
  /// into the change (`DocumentReader.readWholeChange`); anything else goes
  /// through the JSON tree: the same change or the same error either way.
  public static func decode(bytes: [UInt8]) throws(FormatError) -> Change {
    var reader = DocumentReader(bytes: bytes)
    if let change = try? reader.readWholeChange() { return change }
    return try decodeThroughTree(bytes: bytes)
  }

  /// `decode(bytes:)` through the JSON tree alone.
  public static func decodeThroughTree(bytes: [UInt8]) throws(FormatError) -> Change {
    try change(JSONCursor(parse(bytes), path: ""))
  }

  /// `{"changes": [...]}`; errors name the place, `changes[3].lines[0].begin.x`.
  /// Straight into the changes when it can (`DocumentReader.readChangeList`),
  /// as `decode(bytes:)`; other members of the object are skipped.
  public static func decodeList(bytes: [UInt8]) throws(FormatError) -> [Change] {
    var reader = DocumentReader(bytes: bytes)
    if let changes = try? reader.readChangeList() { return changes }
    return try decodeListThroughTree(bytes: bytes)
  }

  /// A message `{"type": T, "key": K, "changes": [...]}` (a live
  /// `changes` message) in the shape the page sends, read straight:
  /// its type, key and changes; nil for anything else, valid or not, which
  /// the caller reads through the tree (and which names every problem).
  public static func readChangesMessage(bytes: [UInt8]) -> (type: String?, key: String?, changes: [Change])? {
    var reader = DocumentReader(bytes: bytes)
    return try? reader.readChangesMessage()
  }

  /// `decodeList(bytes:)` through the JSON tree alone: what the page uses,
  /// whose wasm has no room for the reader's share (docs/DESIGN.md, the
  /// wasm's budget).
  public static func decodeListThroughTree(bytes: [UInt8]) throws(FormatError) -> [Change] {
    let root = try JSONCursor(parse(bytes), path: "").object()
    var changes: [Change] = []
    for element in try root.require("changes").elements() { changes.append(try change(element)) }
    return changes
  }

  private static func parse(_ bytes: [UInt8]) throws(FormatError) -> JSONValue {
    do {
      return try JSONParser.parse(bytes: bytes)
    } catch {
      throw FormatError(error.message)
    }
  }

  static func change(_ cursor: JSONCursor) throws(FormatError) -> Change {
    let object = try cursor.object()
    let op = try object.require("op")
    let name = try op.string()
    switch name {
    case "add":
      var lines: [Line] = []
      var circles: [Circle] = []
      if let field = object.member("lines") {
        for element in try field.elements() { lines.append(try requireID(DocumentCoder.line(element), element)) }
      }
      if let field = object.member("circles") {
        for element in try field.elements() { circles.append(try requireID(DocumentCoder.circle(element), element)) }
      }
      try DocumentCoder.validate(Drawing(lines: lines, circles: circles), path: object.path)
      var position: Int?
      if let field = object.member("at") {
        let number = try field.number()
        guard number >= 0, number <= 1e15, number == number.rounded(.towardZero) else {
          throw FormatError("Invalid position \(NumberText.format(number)) at \(field.path); expected an integer >= 0")
        }
        position = Int(number)
      }
      return .add(lines: lines, circles: circles, at: position)
    case "delete":
      if let line = object.member("line") { return .deleteLine(try DocumentCoder.id(line)) }
      if let circle = object.member("circle") { return .deleteCircle(try DocumentCoder.id(circle)) }
      throw missingShape(object)
    case "move":
      if let line = object.member("line") {
        return .moveLine(
          try DocumentCoder.id(line), begin: try writablePoint(object.require("begin")),
          end: try writablePoint(object.require("end")))
      }
      if let circle = object.member("circle") {
        return .moveCircle(try DocumentCoder.id(circle), center: try writablePoint(object.require("center")))
      }
      throw missingShape(object)
    case "recolor":
      let shape: ShapeReference
      if let line = object.member("line") {
        shape = .line(try DocumentCoder.id(line))
      } else if let circle = object.member("circle") {
        shape = .circle(try DocumentCoder.id(circle))
      } else {
        throw missingShape(object)
      }
      return .recolor(shape, color: try DocumentCoder.color(object.require("color")))
    case "clear":
      return .clear
    default:
      throw FormatError(
        "Unknown op \(QuotedToken.quoted(name)) at \(op.path); expected 'add', 'delete', 'move', 'recolor' or 'clear'")
    }
  }

  /// A delete, move or recolor that names no shape.
  private static func missingShape(_ object: JSONCursor) -> FormatError {
    FormatError("Missing 'line' or 'circle' at \(object.location)")
  }

  /// A point a document can hold exactly (see `DocumentCoder.checkNumber`),
  /// read once. Not inlined: three call sites would each carry its checks.
  @inline(never)
  private static func writablePoint(_ field: JSONCursor) throws(FormatError) -> Point {
    let point = try field.point()
    try DocumentCoder.checkNumber(point.x, "\(field.path).x")
    try DocumentCoder.checkNumber(point.y, "\(field.path).y")
    return point
  }

  /// A shape in a change must say which one it is.
  private static func requireID<Shape: Identified>(_ shape: Shape, _ element: JSONCursor) throws(FormatError) -> Shape {
    guard shape.id.isValid else { throw FormatError("Missing 'id' at \(element.location)") }
    return shape
  }
}

/// A shape with an id (lines and circles), for code that treats both alike.
protocol Identified {
  var id: ShapeID { get }
}

extension Line: Identified {}
extension Circle: Identified {}
