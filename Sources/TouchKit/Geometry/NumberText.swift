/// Short, locale-free text for numbers (no Foundation, no `printf`): what
/// diagnostics, SVG and the app's JSON write.
public enum NumberText {
  /// Digits after the point that `format` keeps: a ten-thousandth of a point
  /// is far below what a screen or a finger can tell apart.
  public static let fractionDigits = 4

  /// Short text for a finite number: integers without a point ("100"),
  /// others with at most `fractionDigits` digits after it ("12.5").
  public static func format(_ value: Double) -> String {
    var bytes: [UInt8] = []
    append(value, to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Appends the text of `value` to `bytes`; non-finite values become 0,
  /// which callers rule out beforehand.
  public static func append(_ value: Double, to bytes: inout [UInt8]) {
    guard value.isFinite else {
      bytes.append(UInt8(ascii: "0"))
      return
    }
    var scale: UInt64 = 1
    for _ in 0..<fractionDigits { scale *= 10 }
    // Beyond any screen, and beyond what a UInt64 holds: stop at 9e18.
    let magnitude = min(value < 0 ? -value : value, 9e18)
    // The integer part is written exactly, whatever its size: ids are
    // integers up to 2^53 - 1, and scaling those by `scale` first would
    // round them (an id written as 32423284834305.9968 is refused).
    // `magnitude - whole` is exact, so the fraction is the number's own.
    let whole = magnitude.rounded(.towardZero)
    var integerPart = UInt64(whole)
    var fraction = UInt64(((magnitude - whole) * Double(scale)).rounded())
    if fraction == scale {
      integerPart += 1
      fraction = 0
    }
    if value < 0 && (integerPart != 0 || fraction != 0) { bytes.append(UInt8(ascii: "-")) }
    appendInteger(integerPart, to: &bytes)
    guard fraction != 0 else { return }
    var digits = fractionDigits
    while fraction % 10 == 0 {
      fraction /= 10
      digits -= 1
    }
    bytes.append(UInt8(ascii: "."))
    var text: [UInt8] = []
    for _ in 0..<digits {
      text.append(UInt8(ascii: "0") + UInt8(fraction % 10))
      fraction /= 10
    }
    bytes.append(contentsOf: text.reversed())
  }

  /// Appends the decimal digits of `value` to `bytes`.
  public static func appendInteger(_ value: UInt64, to bytes: inout [UInt8]) {
    if value == 0 {
      bytes.append(UInt8(ascii: "0"))
      return
    }
    var digits: [UInt8] = []
    var remaining = value
    while remaining > 0 {
      digits.append(UInt8(ascii: "0") + UInt8(remaining % 10))
      remaining /= 10
    }
    bytes.append(contentsOf: digits.reversed())
  }
}
