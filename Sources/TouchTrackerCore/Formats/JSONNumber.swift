/// Number text read from JSON, without Foundation or the C library's
/// locale-dependent `strtod` (numbers are written by `NumberText`).
public enum JSONNumber {
  private static let exactPowersOfTen: [Double] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19,
    1e20, 1e21, 1e22,
  ]

  /// The value of already validated JSON number text. Exact (correctly
  /// rounded) for up to 15 significant digits with exponents up to 22, which
  /// covers every coordinate people produce; otherwise within an ulp or two.
  static func parse(_ text: ArraySlice<UInt8>) -> Double {
    var negative = false
    var mantissa: UInt64 = 0
    var significantDigits = 0
    var exponent = 0
    var index = text.startIndex
    if index < text.endIndex && text[index] == UInt8(ascii: "-") {
      negative = true
      index += 1
    }
    var afterPoint = false
    while index < text.endIndex {
      let byte = text[index]
      if byte == UInt8(ascii: ".") {
        afterPoint = true
      } else if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
        if significantDigits < 19 {
          if mantissa != 0 || byte != UInt8(ascii: "0") { significantDigits += 1 }
          mantissa = mantissa * 10 + UInt64(byte - UInt8(ascii: "0"))
          if afterPoint { exponent -= 1 }
        } else if !afterPoint {
          exponent += 1
        }
      } else {
        break
      }
      index += 1
    }
    if index < text.endIndex && (text[index] == UInt8(ascii: "e") || text[index] == UInt8(ascii: "E")) {
      index += 1
      var exponentNegative = false
      if text[index] == UInt8(ascii: "+") || text[index] == UInt8(ascii: "-") {
        exponentNegative = text[index] == UInt8(ascii: "-")
        index += 1
      }
      var written = 0
      while index < text.endIndex, written < 100_000 {
        written = written * 10 + Int(text[index] - UInt8(ascii: "0"))
        index += 1
      }
      exponent += exponentNegative ? -written : written
    }
    var value = Double(mantissa)
    if mantissa != 0 {
      var remaining = exponent
      while remaining > 22 {
        value *= 1e22
        remaining -= 22
        if !value.isFinite { break }
      }
      while remaining < -22 {
        value /= 1e22
        remaining += 22
        if value == 0 { break }
      }
      // The loops above stop early once the value overflowed or underflowed,
      // leaving `remaining` outside the table: there is nothing left to scale.
      if value.isFinite && value != 0 {
        if remaining >= 0 { value *= exactPowersOfTen[remaining] } else { value /= exactPowersOfTen[-remaining] }
      }
    }
    return negative ? -value : value
  }

  /// The exact decimal digits of an integral finite `value` ("-" first if
  /// negative), however large: for messages naming a number beyond what
  /// `format` writes (it stops at 9e18), such as an id of 2^64.
  ///
  /// In the wasm (Embedded Swift) it is `format`: the page's core stays
  /// within its size budget, and the server, which checks every document
  /// and change before storing it, names the number exactly.
  public static func exactInteger(_ value: Double) -> String {
    #if hasFeature(Embedded)
      return NumberText.format(value)
    #else
      return exactDigits(value)
    #endif
  }

  private static func exactDigits(_ value: Double) -> String {
    guard value.isFinite, value == value.rounded(.towardZero) else { return NumberText.format(value) }
    var magnitude = value < 0 ? -value : value
    var digits: [UInt8] = []  // least significant first
    // magnitude = significand * 2^shift, the significand below 2^53.
    var shift = 0
    while magnitude >= 9_007_199_254_740_992 {
      magnitude /= 2
      shift += 1
    }
    var significand = UInt64(magnitude)
    repeat {
      digits.append(UInt8(significand % 10))
      significand /= 10
    } while significand > 0
    for _ in 0..<shift {
      var carry: UInt8 = 0
      for index in digits.indices {
        let doubled = digits[index] * 2 + carry
        digits[index] = doubled % 10
        carry = doubled / 10
      }
      if carry > 0 { digits.append(carry) }
    }
    var bytes: [UInt8] = value < 0 ? [UInt8(ascii: "-")] : []
    for digit in digits.reversed() { bytes.append(UInt8(ascii: "0") + digit) }
    return String(decoding: bytes, as: UTF8.self)
  }
}
