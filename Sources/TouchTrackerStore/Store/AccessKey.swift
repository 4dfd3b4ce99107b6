/// The secret of a share link or of the admin: 24 bytes from the system's
/// CSPRNG (`SystemRandomNumberGenerator` reads `getrandom` on Linux), 192
/// bits, written as 32 characters of URL-safe base64 without padding
/// (`A-Z a-z 0-9 - _`), so it goes into a query string or a header as is.
///
/// Keys are compared with `matches`, which takes the same time wherever the
/// two differ: comparing with `==` stops at the first different byte, and
/// how long a refusal takes would tell a guesser how much of a key was right.
public enum AccessKey {
  /// Random bytes in a key: 192 bits, past the 128 a guesser cannot cover.
  public static let byteCount = 24
  /// Characters in a key.
  public static let length = 32

  /// A new key.
  public static func random() -> String {
    var generator = SystemRandomNumberGenerator()
    return random(using: &generator)
  }

  /// A key from `generator`; tests pass a seeded one.
  public static func random(using generator: inout some RandomNumberGenerator) -> String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(byteCount)
    while bytes.count < byteCount {
      var word = generator.next()
      for _ in 0..<8 where bytes.count < byteCount {
        bytes.append(UInt8(truncatingIfNeeded: word))
        word >>= 8
      }
    }
    return base64URL(bytes)
  }

  /// Whether `presented` is `expected`, in a time that depends on their
  /// lengths only: every byte is compared, the differences are collected
  /// with `|`, and nothing branches on a byte's value.
  public static func matches(_ presented: String, _ expected: String) -> Bool {
    compare(presented, expected).isEqual
  }

  /// `matches`, with how many byte pairs it looked at: all of them
  /// whenever the lengths agree, wherever the first difference is (tests
  /// hold it to that).
  static func compare(_ presented: String, _ expected: String) -> (isEqual: Bool, examined: Int) {
    let a = Array(presented.utf8)
    let b = Array(expected.utf8)
    // A length differs in the key's format only (a key is 32 characters),
    // which is no secret.
    guard a.count == b.count else { return (false, 0) }
    var difference: UInt8 = 0
    var examined = 0
    for index in 0..<a.count {
      difference |= a[index] ^ b[index]
      examined += 1
    }
    return (difference == 0, examined)
  }

  /// Whether `text` has a key's form: 32 characters of `A-Z a-z 0-9 - _`.
  /// Says nothing about whether it is anyone's key.
  public static func isWellFormed(_ text: some StringProtocol) -> Bool {
    text.utf8.count == length && text.utf8.allSatisfy { alphabet.utf8.contains($0) }
  }

  static let alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"

  /// RFC 4648 section 5 ("base64url"), without padding.
  static func base64URL(_ bytes: [UInt8]) -> String {
    let symbols = Array(alphabet.utf8)
    var out: [UInt8] = []
    var index = 0
    while index < bytes.count {
      let chunk = bytes[index..<min(index + 3, bytes.count)]
      var value: UInt32 = 0
      for byte in chunk { value = value << 8 | UInt32(byte) }
      value <<= UInt32(8 * (3 - chunk.count))
      for position in 0..<(chunk.count + 1) {
        out.append(symbols[Int(value >> UInt32(18 - 6 * position) & 63)])
      }
      index += 3
    }
    return String(decoding: out, as: UTF8.self)
  }
}
