import Foundation
import TouchTrackerCore

/// Reads and writes whole document JSON texts (see `Document` for the format).
///
/// Reading is strict: the text must be RFC 8259 JSON (no `NaN`, `Infinity`,
/// trailing commas or duplicate keys), every number must fit a `Double`
/// (`1e999` is a "Non-finite number"), and the document must be complete and
/// valid. Writing puts the fields in the contract's order, colors in
/// lowercase `#rrggbb` and integral numbers without a fraction.
public enum DocumentCodec {
  /// - Complexity: O(n) in the length of the text.
  public static func decode(_ data: Data) throws(DocumentError) -> Drawing {
    try StrictJSONScanner.check(data)
    do {
      return try JSONDecoder().decode(Document.self, from: data).drawing
    } catch let error as DocumentError {
      throw error
    } catch DecodingError.keyNotFound(let key, let context) {
      throw .missingField(key.stringValue, at: DocumentPath(context.codingPath))
    } catch DecodingError.typeMismatch(let type, let context), DecodingError.valueNotFound(let type, let context) {
      throw .wrongType(expected: describe(type), at: DocumentPath(context.codingPath))
    } catch DecodingError.dataCorrupted(let context) {
      throw .invalidJSON(context.debugDescription + DocumentPath(context.codingPath).suffix)
    } catch {
      throw .invalidJSON("\(error)")
    }
  }

  /// The document text of `drawing`. Throws only for a NaN or infinite
  /// number, which JSON cannot spell.
  ///
  /// - Complexity: O(n) in the number of lines and circles.
  public static func encode(_ drawing: Drawing) throws(DocumentError) -> Data {
    var text = #"{"format":"touchtracker","version":1,"lines":["#
    text.reserveCapacity(128 + 100 * (drawing.lines.count + drawing.circles.count))
    for (index, line) in drawing.lines.enumerated() {
      func path() -> DocumentPath { DocumentPath([.key("lines"), .index(index)]) }
      if index > 0 { text += "," }
      text += #"{"begin":"#
      try appendPoint(line.begin, to: &text, at: path().appending(.key("begin")))
      text += #","end":"#
      try appendPoint(line.end, to: &text, at: path().appending(.key("end")))
      text += #","color":""# + line.color.hex + #"","width":"#
      try appendNumber(line.width, to: &text, at: path().appending(.key("width")))
      text += "}"
    }
    text += #"],"circles":["#
    for (index, circle) in drawing.circles.enumerated() {
      func path() -> DocumentPath { DocumentPath([.key("circles"), .index(index)]) }
      if index > 0 { text += "," }
      text += #"{"center":"#
      try appendPoint(circle.center, to: &text, at: path().appending(.key("center")))
      text += #","radius":"#
      try appendNumber(circle.radius, to: &text, at: path().appending(.key("radius")))
      text += #","color":""# + circle.color.hex + #"","width":"#
      try appendNumber(circle.width, to: &text, at: path().appending(.key("width")))
      text += "}"
    }
    text += "]}"
    return Data(text.utf8)
  }

  // Paths are autoclosures: they are built only for the error, not for
  // every number of a 100,000-line drawing.

  private static func appendPoint(
    _ point: Point,
    to text: inout String,
    at path: @autoclosure () -> DocumentPath
  ) throws(DocumentError) {
    text += #"{"x":"#
    try appendNumber(point.x, to: &text, at: path().appending(.key("x")))
    text += #","y":"#
    try appendNumber(point.y, to: &text, at: path().appending(.key("y")))
    text += "}"
  }

  private static func appendNumber(
    _ value: Double,
    to text: inout String,
    at path: @autoclosure () -> DocumentPath
  ) throws(DocumentError) {
    guard value.isFinite else { throw .nonFiniteNumber(at: path()) }
    text += JSONNumber.text(value)
  }

  /// How a message names the JSON type that `Decoder` wanted.
  private static func describe(_ type: Any.Type) -> String {
    switch type {
    case is Double.Type, is Int.Type: return "a number"
    case is String.Type: return "a string"
    default: return String(describing: type).hasPrefix("Array<") ? "an array" : "an object"
    }
  }
}
