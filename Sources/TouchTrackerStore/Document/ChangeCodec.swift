import Foundation
import TouchTrackerCore

/// Changes as JSON text, through the core's `ChangeCoder`: what the server
/// accepts on `POST /api/drawings/NAME/changes` and what the store keeps in
/// a drawing's log, one change a row.
public enum ChangeCodec {
  /// Reads `{"changes": [CHANGE, ...]}`; the error names the problem and
  /// where (`Non-finite number at changes[3].lines[0].begin.x`).
  public static func decodeList(_ data: Data) throws(DocumentError) -> [Change] {
    guard String(data: data, encoding: .utf8) != nil else {
      throw DocumentError(description: "Invalid JSON: the text is not UTF-8")
    }
    let changes: [Change]
    do {
      changes = try ChangeCoder.decodeList(bytes: [UInt8](data))
    } catch {
      throw DocumentError(description: error.message)
    }
    try validate(changes)
    return changes
  }

  /// `validate` of each change of a list, named by its place (`changes[3]`).
  public static func validate(_ changes: [Change]) throws(DocumentError) {
    for (index, change) in changes.enumerated() { try validate(change, path: "changes[\(index)]") }
  }

  /// Reads one change as the log stores it.
  static func decode(_ text: String) throws(DocumentError) -> Change {
    do {
      return try ChangeCoder.decode(bytes: Array(text.utf8))
    } catch {
      throw DocumentError(description: error.message)
    }
  }

  /// Writes one change for the log, refusing one the log could not replay
  /// as it was meant (see `validate`).
  static func encode(_ change: Change, path: String) throws(DocumentError) -> String {
    try validate(change, path: path)
    return String(decoding: ChangeCoder.encode(change), as: UTF8.self)
  }

  /// What `ChangeCoder.decode` refuses, checked on changes made in code too
  /// (numbers the format cannot hold, shapes without an id, a negative
  /// position), and one thing it lets through: an add naming the same id
  /// twice, which would leave two shapes with one id in the drawing, a
  /// document no reader accepts.
  static func validate(_ change: Change, path: String) throws(DocumentError) {
    do throws(FormatError) {
      switch change {
      case .add(let lines, let circles, let position):
        try DocumentCoder.validate(Drawing(lines: lines, circles: circles), path: path)
        if let position, position < 0 {
          throw FormatError("Invalid position \(position) at \(path).at; expected an integer >= 0")
        }
        var seen = Set<ShapeID>()
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
      case .clear:
        break
      }
    } catch {
      throw DocumentError(description: error.message)
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
    _ id: ShapeID, width: Double, radius: Double, _ path: String, _ seen: inout Set<ShapeID>
  ) throws(FormatError) {
    guard id.isValid else { throw FormatError("Missing 'id' at \(path)") }
    guard seen.insert(id).inserted else { throw FormatError("Duplicate id \(id.rawValue) at \(path).id") }
    guard width > 0 else { throw FormatError("Width must be positive at \(path).width") }
    guard radius >= 0 else { throw FormatError("Negative radius at \(path).radius") }
  }
}
