/// The escapes of JSON strings (`\n`, `\u00e9`, surrogate pairs), for the
/// keys `StrictJSONScanner` must compare and name in messages.
enum JSONEscape {
  static func hexValue(_ byte: UInt8) -> UInt32? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
    case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
    case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
    default: nil
    }
  }

  /// Decodes the escapes of an already scanned string; a lone surrogate
  /// becomes U+FFFD, as in Foundation.
  static func unescape(_ content: ArraySlice<UInt8>) -> String {
    var scalars = String.UnicodeScalarView()
    var utf8 = Array(content)[...]
    while !utf8.isEmpty {
      guard utf8.first == UInt8(ascii: "\\") else {
        let end = utf8.firstIndex(of: UInt8(ascii: "\\")) ?? utf8.endIndex
        scalars.append(contentsOf: String(decoding: utf8[..<end], as: UTF8.self).unicodeScalars)
        utf8 = utf8[end...]
        continue
      }
      let escape = utf8.dropFirst().first!
      utf8 = utf8.dropFirst(2)
      switch escape {
      case UInt8(ascii: "b"): scalars.append("\u{8}")
      case UInt8(ascii: "f"): scalars.append("\u{c}")
      case UInt8(ascii: "n"): scalars.append("\n")
      case UInt8(ascii: "r"): scalars.append("\r")
      case UInt8(ascii: "t"): scalars.append("\t")
      case UInt8(ascii: "u"):
        var unit = utf8.prefix(4).reduce(UInt32(0)) { $0 << 4 | hexValue($1)! }
        utf8 = utf8.dropFirst(4)
        if (0xd800..<0xdc00).contains(unit), utf8.starts(with: Array("\\u".utf8)) {
          let low = utf8.dropFirst(2).prefix(4).reduce(UInt32(0)) { $0 << 4 | hexValue($1)! }
          if (0xdc00..<0xe000).contains(low) {
            unit = 0x10000 + (unit - 0xd800) << 10 + (low - 0xdc00)
            utf8 = utf8.dropFirst(6)
          }
        }
        scalars.append(Unicode.Scalar(unit) ?? "\u{fffd}")
      default: scalars.append(Unicode.Scalar(escape))
      }
    }
    return String(scalars)
  }
}
