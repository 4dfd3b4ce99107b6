/// How documents spell numbers: integral values without a fraction (`10`,
/// not `10.0`), others in Swift's shortest form that reads back exactly
/// (`0.1`, `1e-07`), which is always valid JSON for finite values.
enum JSONNumber {
  /// 2^53: beyond it not every integer is a `Double`, and the shortest
  /// form is clearer than a long run of digits.
  private static let largestExactInteger = 9_007_199_254_740_992.0

  static func text(_ value: Double) -> String {
    if value.rounded(.towardZero) == value, abs(value) < largestExactInteger {
      return String(Int64(value))
    }
    return "\(value)"
  }
}
