import TouchTrackerCore

/// One line in progress in a `presence` message: relayed, never stored.
///
/// Checked as a document's line is (finite numbers within ±1,000,000,000, a
/// `#rrggbb` color, a width above 0) and written again by the server, so
/// what other clients receive is never the sender's text.
struct PresenceLine: Equatable, Sendable {
  var begin: Point
  var end: Point
  /// Lowercase `#rrggbb`.
  var color: String
  var width: Double

  static let maximumCount = 64

  static func lines(in root: JSONValue) throws(LiveError) -> [PresenceLine] {
    guard let value = root["lines"] else { throw LiveError("Missing 'lines' in presence") }
    guard case .array(let elements) = value else {
      throw LiveError("Expected an array at lines, got \(value.typeName)")
    }
    guard elements.count <= maximumCount else {
      throw LiveError("Too many lines at lines: \(elements.count), at most \(maximumCount)")
    }
    var lines: [PresenceLine] = []
    for (index, element) in elements.enumerated() {
      let path = "lines[\(index)]"
      guard case .object = element else { throw LiveError("Expected an object at \(path), got \(element.typeName)") }
      lines.append(
        PresenceLine(
          begin: try point(element["begin"], "\(path).begin"),
          end: try point(element["end"], "\(path).end"),
          color: try color(element["color"], "\(path).color"),
          width: try width(element["width"], "\(path).width")))
    }
    return lines
  }

  private static func point(_ value: JSONValue?, _ path: String) throws(LiveError) -> Point {
    guard let value else { throw LiveError("Missing \(path)") }
    guard case .object = value else { throw LiveError("Expected an object at \(path), got \(value.typeName)") }
    return Point(x: try number(value["x"], "\(path).x"), y: try number(value["y"], "\(path).y"))
  }

  private static func number(_ value: JSONValue?, _ path: String) throws(LiveError) -> Double {
    guard let value else { throw LiveError("Missing \(path)") }
    guard case .number(let number) = value else {
      throw LiveError("Expected a number at \(path), got \(value.typeName)")
    }
    guard number.isFinite else { throw LiveError("Non-finite number at \(path)") }
    guard abs(number) <= DocumentCoder.maximumMagnitude else { throw LiveError("Number out of range at \(path)") }
    return number
  }

  private static func color(_ value: JSONValue?, _ path: String) throws(LiveError) -> String {
    guard let value else { throw LiveError("Missing \(path)") }
    guard case .string(let text) = value, Color(hex: text) != nil, text.utf8.count == 7 else {
      throw LiveError("Invalid color at \(path): expected #rrggbb")
    }
    return text.lowercased()
  }

  private static func width(_ value: JSONValue?, _ path: String) throws(LiveError) -> Double {
    let width = try number(value, path)
    guard width > 0 else { throw LiveError("Width must be positive at \(path)") }
    return width
  }
}
