/// A strict JSON parser (RFC 8259) over UTF-8 bytes, with errors that say
/// where: "Invalid JSON at line 3, column 14: expected ',' or '}'".
///
/// Numbers that overflow to infinity (`1e999`) are rejected: a document must
/// never carry a non-finite coordinate. Nesting is limited so hostile input
/// cannot exhaust the stack.
public struct JSONParser {
  public static let maximumDepth = 64

  private let bytes: [UInt8]
  private var position = 0
  private var depth = 0

  private init(bytes: [UInt8]) {
    self.bytes = bytes
  }

  public static func parse(_ text: String) throws(JSONError) -> JSONValue {
    try parse(bytes: Array(text.utf8))
  }

  public static func parse(bytes: [UInt8]) throws(JSONError) -> JSONValue {
    var parser = JSONParser(bytes: bytes)
    parser.skipWhitespace()
    let value = try parser.parseValue()
    parser.skipWhitespace()
    guard parser.position == bytes.count else { throw parser.error("unexpected text after the end") }
    return value
  }

  /// The error at `offset` (default: the current position), which should be
  /// where the offending text starts.
  private func error(_ problem: String, at offset: Int? = nil) -> JSONError {
    var line = 1
    var column = 1
    for byte in bytes[0..<min(offset ?? position, bytes.count)] {
      if byte == UInt8(ascii: "\n") {
        line += 1
        column = 1
      } else if byte & 0xC0 != 0x80 {
        column += 1
      }
    }
    return JSONError(line: line, column: column, problem: problem)
  }

  private var current: UInt8? { position < bytes.count ? bytes[position] : nil }

  private mutating func skipWhitespace() {
    while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { position += 1 }
  }

  private mutating func parseValue() throws(JSONError) -> JSONValue {
    guard let byte = current else { throw error("unexpected end of input") }
    switch byte {
    case UInt8(ascii: "{"): return try parseObject()
    case UInt8(ascii: "["): return try parseArray()
    case UInt8(ascii: "\""): return .string(try parseString())
    case UInt8(ascii: "t"): return try parseLiteral("true", .bool(true))
    case UInt8(ascii: "f"): return try parseLiteral("false", .bool(false))
    case UInt8(ascii: "n"): return try parseLiteral("null", .null)
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
    default:
      if let word = nonFiniteWord() { throw error("non-finite number '\(word)'") }
      throw error("unexpected character \(QuotedToken.quoted(String(decoding: [byte], as: UTF8.self)))")
    }
  }

  /// JavaScript and Python write NaN and infinities as bare words; name them
  /// instead of complaining about their first letter. Compares in place:
  /// this runs before every number.
  private func nonFiniteWord() -> String? {
    let words: [StaticString] = ["NaN", "Infinity", "-Infinity", "-NaN"]
    for word in words where matches(word) { return word.description }
    return nil
  }

  /// Whether the bytes at the current position spell `word`.
  private func matches(_ word: StaticString) -> Bool {
    let count = word.utf8CodeUnitCount
    guard position + count <= bytes.count else { return false }
    let start = word.utf8Start
    for offset in 0..<count where bytes[position + offset] != start[offset] { return false }
    return true
  }

  private mutating func parseLiteral(_ word: StaticString, _ value: JSONValue) throws(JSONError) -> JSONValue {
    guard matches(word) else {
      throw error("unexpected character \(QuotedToken.quoted(String(decoding: [bytes[position]], as: UTF8.self)))")
    }
    position += word.utf8CodeUnitCount
    return value
  }

  private mutating func enter() throws(JSONError) {
    depth += 1
    guard depth <= JSONParser.maximumDepth else { throw error("nesting deeper than \(JSONParser.maximumDepth) levels") }
  }

  private mutating func parseObject() throws(JSONError) -> JSONValue {
    try enter()
    position += 1
    var members: [(key: String, value: JSONValue)] = []
    var keys = JSONKeySet()
    skipWhitespace()
    if current == UInt8(ascii: "}") {
      position += 1
      depth -= 1
      return .object(members)
    }
    while true {
      skipWhitespace()
      guard current == UInt8(ascii: "\"") else { throw error("expected a string key") }
      let keyStart = position
      let key = try parseStringBytes()
      skipWhitespace()
      guard current == UInt8(ascii: ":") else { throw error("expected ':' after a key") }
      position += 1
      skipWhitespace()
      let value = try parseValue()
      let name = String(decoding: key, as: UTF8.self)
      guard keys.insert(key) else {
        throw error("duplicate key \(QuotedToken.quoted(name))", at: keyStart)
      }
      members.append((name, value))
      skipWhitespace()
      if current == UInt8(ascii: ",") {
        position += 1
      } else if current == UInt8(ascii: "}") {
        position += 1
        depth -= 1
        return .object(members)
      } else {
        throw error("expected ',' or '}'")
      }
    }
  }

  private mutating func parseArray() throws(JSONError) -> JSONValue {
    try enter()
    position += 1
    var elements: [JSONValue] = []
    skipWhitespace()
    if current == UInt8(ascii: "]") {
      position += 1
      depth -= 1
      return .array(elements)
    }
    while true {
      skipWhitespace()
      elements.append(try parseValue())
      skipWhitespace()
      if current == UInt8(ascii: ",") {
        position += 1
      } else if current == UInt8(ascii: "]") {
        position += 1
        depth -= 1
        return .array(elements)
      } else {
        throw error("expected ',' or ']'")
      }
    }
  }

  private mutating func parseString() throws(JSONError) -> String {
    String(decoding: try parseStringBytes(), as: UTF8.self)
  }

  /// The UTF-8 bytes of the string starting at the current quote, escapes decoded.
  private mutating func parseStringBytes() throws(JSONError) -> [UInt8] {
    position += 1
    var scalars: [UInt8] = []
    while true {
      guard let byte = current else { throw error("unterminated string") }
      position += 1
      switch byte {
      case UInt8(ascii: "\""):
        return scalars
      case UInt8(ascii: "\\"):
        guard let escape = current else { throw error("unterminated string") }
        position += 1
        switch escape {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scalars.append(escape)
        case UInt8(ascii: "b"): scalars.append(0x08)
        case UInt8(ascii: "f"): scalars.append(0x0C)
        case UInt8(ascii: "n"): scalars.append(0x0A)
        case UInt8(ascii: "r"): scalars.append(0x0D)
        case UInt8(ascii: "t"): scalars.append(0x09)
        case UInt8(ascii: "u"):
          var code = try parseHex4()
          if code >= 0xD800 && code < 0xDC00, current == UInt8(ascii: "\\"), position + 1 < bytes.count,
            bytes[position + 1] == UInt8(ascii: "u")
          {
            position += 2
            let low = try parseHex4()
            guard low >= 0xDC00 && low < 0xE000 else { throw error("invalid surrogate pair") }
            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
          }
          guard let scalar = Unicode.Scalar(code) else { throw error("invalid unicode escape") }
          UTF8.encode(scalar) { scalars.append($0) }
        default:
          throw error(
            "invalid escape \(QuotedToken.quoted("\\" + String(decoding: [escape], as: UTF8.self)))", at: position - 2)
        }
      case 0x00..<0x20:
        throw error("control character in string", at: position - 1)
      default:
        scalars.append(byte)
      }
    }
  }

  private mutating func parseHex4() throws(JSONError) -> UInt32 {
    var value: UInt32 = 0
    for _ in 0..<4 {
      guard let byte = current else { throw error("unterminated string") }
      let digit: UInt32
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
      default: throw error("invalid unicode escape")
      }
      value = value << 4 | digit
      position += 1
    }
    return value
  }

  private mutating func parseNumber() throws(JSONError) -> Double {
    let start = position
    if let word = nonFiniteWord() { throw error("non-finite number '\(word)'") }
    if current == UInt8(ascii: "-") { position += 1 }
    guard let first = current, first >= UInt8(ascii: "0") && first <= UInt8(ascii: "9") else {
      throw error("invalid number")
    }
    if first == UInt8(ascii: "0") {
      position += 1
    } else {
      while let byte = current, byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") { position += 1 }
    }
    if current == UInt8(ascii: ".") {
      position += 1
      guard let byte = current, byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") else {
        throw error("invalid number")
      }
      while let byte = current, byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") { position += 1 }
    }
    if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
      position += 1
      if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { position += 1 }
      guard let byte = current, byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") else {
        throw error("invalid number")
      }
      while let byte = current, byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") { position += 1 }
    }
    let value = JSONNumber.parse(bytes[start..<position])
    guard value.isFinite else {
      let text = String(decoding: bytes[start..<position], as: UTF8.self)
      position = start
      throw error("number out of range '\(text)'")
    }
    return value
  }
}

/// Why a text is not valid JSON, and where.
public struct JSONError: Error, Equatable, Sendable {
  public let line: Int
  public let column: Int
  public let problem: String

  public var message: String { "Invalid JSON at line \(line), column \(column): \(problem)" }
}
