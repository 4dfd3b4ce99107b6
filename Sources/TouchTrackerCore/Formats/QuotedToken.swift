/// How error messages show text that came from a file or a user:
/// `'moving'`, with control characters written as escapes (`'a\nb'`,
/// `'\u001b[31m'`).
///
/// Why: errors are one line ("Error: <message>"), and the tokens they quote
/// (phases, titles, colors, keys) come from untrusted files. A raw newline
/// would break the one-line contract; an ANSI or OSC escape (ESC, BEL) would
/// reach the user's terminal and could rewrite what it shows. Every message
/// that quotes a token goes through here.
public enum QuotedToken {
  /// `text` in single quotes, control characters escaped.
  public static func quoted(_ text: String) -> String {
    "'" + escaped(text) + "'"
  }

  /// `text` with every C0 control character, DEL and C1 control character
  /// written as an escape: `\n`, `\r`, `\t`, or `\u` and four hex digits.
  /// Everything else, including backslashes, stays as it is. Works on the
  /// UTF-8 bytes (a C1 character is 0xC2 and 0x80-0x9F), which keeps the
  /// wasm small.
  public static func escaped(_ text: String) -> String {
    var bytes: [UInt8] = []
    var changed = false
    var previous: UInt8 = 0
    for byte in text.utf8 {
      defer { previous = byte }
      let c1 = previous == 0xC2 && byte >= 0x80 && byte <= 0x9F
      guard byte < 0x20 || byte == 0x7F || c1 else {
        bytes.append(byte)
        continue
      }
      changed = true
      if c1 { bytes.removeLast() }
      bytes.append(UInt8(ascii: "\\"))
      switch byte {
      case 0x0A: bytes.append(UInt8(ascii: "n"))
      case 0x0D: bytes.append(UInt8(ascii: "r"))
      case 0x09: bytes.append(UInt8(ascii: "t"))
      default:
        let digits: StaticString = "0123456789abcdef"
        bytes.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")])
        bytes.append(digits.utf8Start[Int(byte >> 4)])
        bytes.append(digits.utf8Start[Int(byte & 0xF)])
      }
    }
    return changed ? String(decoding: bytes, as: UTF8.self) : text
  }
}
