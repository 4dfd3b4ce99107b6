/// Reading typed fields out of parsed JSON while remembering where they came
/// from, so every error names its place: `lines[3].begin.x`.
struct JSONCursor {
  let value: JSONValue
  let path: String

  init(_ value: JSONValue, path: String) {
    self.value = value
    self.path = path
  }

  /// "lines[3].begin", or "" at the top.
  private func child(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

  var location: String { path.isEmpty ? "the top level" : path }

  func member(_ key: String) -> JSONCursor? {
    value[key].map { JSONCursor($0, path: child(key)) }
  }

  func require(_ key: String) throws(FormatError) -> JSONCursor {
    guard case .object = value else { throw FormatError("Expected an object at \(location), found \(value.typeName)") }
    guard let member = member(key) else { throw FormatError("Missing '\(key)' at \(location)") }
    return member
  }

  func number() throws(FormatError) -> Double {
    guard case .number(let number) = value else {
      throw FormatError("Expected a number at \(path), found \(value.typeName)")
    }
    return number
  }

  func string() throws(FormatError) -> String {
    guard case .string(let text) = value else {
      throw FormatError("Expected a string at \(path), found \(value.typeName)")
    }
    return text
  }

  func elements() throws(FormatError) -> [JSONCursor] {
    guard case .array(let elements) = value else {
      throw FormatError("Expected an array at \(path), found \(value.typeName)")
    }
    return elements.enumerated().map { JSONCursor($1, path: "\(path)[\($0)]") }
  }

  func point() throws(FormatError) -> Point {
    Point(x: try require("x").number(), y: try require("y").number())
  }

  func object() throws(FormatError) -> JSONCursor {
    guard case .object = value else { throw FormatError("Expected an object at \(location), found \(value.typeName)") }
    return self
  }
}

/// A document or trace that is valid JSON but not what it should be, with
/// one sentence naming the problem and where.
public struct FormatError: Error, Equatable, Sendable {
  public let message: String

  public init(_ message: String) {
    self.message = message
  }
}
