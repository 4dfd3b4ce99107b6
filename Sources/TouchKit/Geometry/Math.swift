// Embedded Swift has no Glibc/Darwin overlay, so the few libm functions the
// core needs are declared directly. Natively the target links `m`; the wasm
// build links wasi-libc, which provides the same symbols.

@_extern(c, "atan2")
func libmAtan2(_ y: Double, _ x: Double) -> Double

@_extern(c, "cos")
func libmCos(_ x: Double) -> Double

@_extern(c, "sin")
func libmSin(_ x: Double) -> Double

/// Trigonometry the core needs, in one place.
public enum Trigonometry {
  /// The angle of the vector `(x, y)` from the positive x axis, in radians, -pi...pi.
  public static func atan2(_ y: Double, _ x: Double) -> Double { libmAtan2(y, x) }
  /// The cosine of `x` radians (libm's `cos`).
  public static func cos(_ x: Double) -> Double { libmCos(x) }
  /// The sine of `x` radians (libm's `sin`).
  public static func sin(_ x: Double) -> Double { libmSin(x) }
}
