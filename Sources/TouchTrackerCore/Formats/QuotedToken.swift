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
    // One call site for appending: inlined at each use, it cost the wasm a kilobyte.
    @inline(never) func put(_ byte: UInt8) { bytes.append(byte) }
    func hex(_ nibble: UInt8) -> UInt8 { nibble < 10 ? 0x30 + nibble : 0x57 + nibble }
    var previous: UInt8 = 0
    for byte in text.utf8 {
      let c1 = previous == 0xC2 && byte >= 0x80 && byte <= 0x9F
      previous = byte
      guard byte < 0x20 || byte == 0x7F || c1 else {
        put(byte)
        continue
      }
      changed = true
      if c1 { bytes.removeLast() }
      put(0x5C)  // backslash
      switch byte {
      case 0x0A: put(0x6E)  // n
      case 0x0D: put(0x72)  // r
      case 0x09: put(0x74)  // t
      default:
        for digit in [0x75, 0x30, 0x30, hex(byte >> 4), hex(byte & 0xF)] as [UInt8] { put(digit) }  // u00XX
      }
    }
    return changed ? String(decoding: bytes, as: UTF8.self) : text
  }
}
