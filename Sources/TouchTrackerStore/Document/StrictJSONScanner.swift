import Foundation

/// Checks that bytes are strict JSON (RFC 8259) before `JSONDecoder` sees them.
///
/// Foundation's decoder on Linux accepts trailing commas and duplicate keys,
/// and reports every syntax error and every number a `Double` cannot hold
/// (`1e999`) as the same "not valid JSON", with no position. This scanner
/// finds the first problem and says where: a line and column for syntax, a
/// document path for keys and numbers. It builds no values, so the document
/// is still decoded once, by `Codable`.
struct StrictJSONScanner {
  /// Documents nest four deep; the limit keeps a body of `[[[[...` from
  /// exhausting the stack of this recursive scanner.
  static let maximumDepth = 64

  private let bytes: [UInt8]
  private var offset = 0
  private var path: [DocumentPath.Component] = []

  private init(_ bytes: [UInt8]) {
    self.bytes = bytes
  }

  static func check(_ data: Data) throws(DocumentError) {
    let bytes = [UInt8](data)
    guard String(validating: bytes, as: UTF8.self) != nil else {
      throw .invalidJSON("the text is not UTF-8")
    }
    var scanner = StrictJSONScanner(bytes)
    try scanner.scanDocument()
  }

  private mutating func scanDocument() throws(DocumentError) {
    skipWhitespace()
    try scanValue(depth: 1)
    skipWhitespace()
    guard offset == bytes.count else { throw unexpected() }
  }

  private mutating func scanValue(depth: Int) throws(DocumentError) {
    guard depth <= Self.maximumDepth else {
      throw .invalidJSON("nesting deeper than \(Self.maximumDepth) \(location(of: offset))")
    }
    guard offset < bytes.count else { throw unexpected() }
    switch bytes[offset] {
    case UInt8(ascii: "{"): try scanObject(depth: depth)
    case UInt8(ascii: "["): try scanArray(depth: depth)
    case UInt8(ascii: "\""): _ = try scanString()
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try scanNumber()
    case UInt8(ascii: "t"): try scanLiteral("true")
    case UInt8(ascii: "f"): try scanLiteral("false")
    case UInt8(ascii: "n"): try scanLiteral("null")
    default: throw unexpected()
    }
  }

  private mutating func scanObject(depth: Int) throws(DocumentError) {
    offset += 1
    skipWhitespace()
    if peek == UInt8(ascii: "}") {
      offset += 1
      return
    }
    var keys = Set<String>()
    while true {
      guard peek == UInt8(ascii: "\"") else { throw unexpected() }
      let key = try scanString()
      guard keys.insert(key).inserted else { throw .duplicateKey(key, at: DocumentPath(path)) }
      skipWhitespace()
      guard peek == UInt8(ascii: ":") else { throw unexpected() }
      offset += 1
      skipWhitespace()
      path.append(.key(key))
      try scanValue(depth: depth + 1)
      path.removeLast()
      skipWhitespace()
      switch peek {
      case UInt8(ascii: ","):
        offset += 1
        skipWhitespace()
      case UInt8(ascii: "}"):
        offset += 1
        return
      default:
        throw unexpected()
      }
    }
  }

  private mutating func scanArray(depth: Int) throws(DocumentError) {
    offset += 1
    skipWhitespace()
    if peek == UInt8(ascii: "]") {
      offset += 1
      return
    }
    var index = 0
    while true {
      path.append(.index(index))
      try scanValue(depth: depth + 1)
      path.removeLast()
      index += 1
      skipWhitespace()
      switch peek {
      case UInt8(ascii: ","):
        offset += 1
        skipWhitespace()
      case UInt8(ascii: "]"):
        offset += 1
        return
      default:
        throw unexpected()
      }
    }
  }

  /// Scans a string starting at its opening quote and returns its value
  /// (needed for keys only, so escapes are decoded only when present).
  private mutating func scanString() throws(DocumentError) -> String {
    offset += 1
    let start = offset
    var hasEscapes = false
    while offset < bytes.count {
      let byte = bytes[offset]
      switch byte {
      case UInt8(ascii: "\""):
        let content = bytes[start..<offset]
        offset += 1
        return hasEscapes ? JSONEscape.unescape(content) : String(decoding: content, as: UTF8.self)
      case UInt8(ascii: "\\"):
        hasEscapes = true
        try scanEscape()
      case 0..<0x20:
        throw .invalidJSON("control character in a string \(location(of: offset))")
      default:
        offset += 1
      }
    }
    throw unexpected()
  }

  private mutating func scanEscape() throws(DocumentError) {
    let start = offset
    offset += 1
    guard offset < bytes.count else { throw unexpected() }
    switch bytes[offset] {
    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
      UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
      offset += 1
    case UInt8(ascii: "u"):
      for _ in 0..<4 {
        offset += 1
        guard offset < bytes.count else { throw unexpected() }
        guard JSONEscape.hexValue(bytes[offset]) != nil else { throw invalidEscape(start..<offset + 1) }
      }
      offset += 1
    default:
      throw invalidEscape(start..<offset + 1)
    }
  }

  private mutating func scanNumber() throws(DocumentError) {
    let start = offset
    var isSimple = true
    if peek == UInt8(ascii: "-") { offset += 1 }
    if peek == UInt8(ascii: "0") {
      offset += 1
    } else {
      guard skipDigits() > 0 else { throw invalidNumber(from: start) }
    }
    if peek == UInt8(ascii: ".") {
      offset += 1
      guard skipDigits() > 0 else { throw invalidNumber(from: start) }
    }
    if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
      isSimple = false
      offset += 1
      if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { offset += 1 }
      guard skipDigits() > 0 else { throw invalidNumber(from: start) }
    }
    if let next = peek, Self.isWordByte(next) { throw invalidNumber(from: start) }
    // Without an exponent, only hundreds of digits can overflow a Double.
    guard !isSimple || offset - start > 300 else { return }
    let text = String(decoding: bytes[start..<offset], as: UTF8.self)
    let value = Double(text) ?? .infinity
    if !value.isFinite { throw .nonFiniteNumber(at: DocumentPath(path)) }
    if value == 0, Self.hasNonZeroMantissa(bytes[start..<offset]) {
      throw .numberOutOfRange(text, at: DocumentPath(path))
    }
  }

  private mutating func scanLiteral(_ literal: String) throws(DocumentError) {
    let expected = Array(literal.utf8)
    let end = offset + expected.count
    guard end <= bytes.count, Array(bytes[offset..<end]) == expected,
      end == bytes.count || !Self.isWordByte(bytes[end])
    else { throw unexpected() }
    offset = end
  }

  // MARK: - Bytes

  private var peek: UInt8? { offset < bytes.count ? bytes[offset] : nil }

  private mutating func skipWhitespace() {
    while let byte = peek,
      byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r")
        || byte == UInt8(ascii: "\t")
    {
      offset += 1
    }
  }

  private mutating func skipDigits() -> Int {
    let start = offset
    while let byte = peek, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") { offset += 1 }
    return offset - start
  }

  /// Letters, digits and `+-.`: what a mistyped number or literal is made of,
  /// so `NaN`, `-Infinity` and `1.2.3` are reported whole.
  private static func isWordByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."):
      true
    default:
      false
    }
  }

  private static func hasNonZeroMantissa(_ number: ArraySlice<UInt8>) -> Bool {
    for byte in number {
      if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") { return false }
      if byte >= UInt8(ascii: "1"), byte <= UInt8(ascii: "9") { return true }
    }
    return false
  }

  // MARK: - Errors

  private func unexpected() -> DocumentError {
    guard offset < bytes.count else { return .invalidJSON("unexpected end of text") }
    var end = offset
    while end < bytes.count, Self.isWordByte(bytes[end]) { end += 1 }
    if end == offset {
      // One character, however many bytes it takes.
      end += 1
      while end < bytes.count, bytes[end] & 0xc0 == 0x80 { end += 1 }
    }
    return .invalidJSON("unexpected '\(text(offset..<end))' \(location(of: offset))")
  }

  private func invalidNumber(from start: Int) -> DocumentError {
    var end = start
    while end < bytes.count, Self.isWordByte(bytes[end]) { end += 1 }
    return .invalidJSON("invalid number '\(text(start..<end))' \(location(of: start))")
  }

  private func invalidEscape(_ range: Range<Int>) -> DocumentError {
    .invalidJSON("invalid escape '\(text(range))' \(location(of: range.lowerBound))")
  }

  private func text(_ range: Range<Int>) -> String {
    let limited = range.prefix(40)
    return String(decoding: bytes[limited], as: UTF8.self) + (limited.count < range.count ? "..." : "")
  }

  /// "at line 3, column 14", counting lines from `\n` and columns in
  /// characters (UTF-8 continuation bytes do not count), both from 1.
  private func location(of position: Int) -> String {
    var line = 1
    var column = 1
    for byte in bytes[..<position] {
      if byte == UInt8(ascii: "\n") {
        line += 1
        column = 1
      } else if byte & 0xc0 != 0x80 {
        column += 1
      }
    }
    return "at line \(line), column \(column)"
  }
}
