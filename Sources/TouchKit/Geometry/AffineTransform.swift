/// A 2-D affine transform, as `CGAffineTransform`: a point (x, y) maps to
/// (a·x + c·y + tx, b·x + d·y + ty). A view's `transform` applies about its
/// center; a render context's maps a view's coordinates to the window's.
public struct AffineTransform: Hashable, Sendable {
  /// The entry that multiplies a point's x into its new x (`CGAffineTransform.a`).
  public var a: Double
  /// The entry that multiplies a point's x into its new y (`CGAffineTransform.b`).
  public var b: Double
  /// The entry that multiplies a point's y into its new x (`CGAffineTransform.c`).
  public var c: Double
  /// The entry that multiplies a point's y into its new y (`CGAffineTransform.d`).
  public var d: Double
  /// What is added to a point's new x: the horizontal translation, in points.
  public var tx: Double
  /// What is added to a point's new y: the vertical translation, in points.
  public var ty: Double

  /// A transform of the six entries, as `CGAffineTransform(a:b:c:d:tx:ty:)`.
  public init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
    self.a = a
    self.b = b
    self.c = c
    self.d = d
    self.tx = tx
    self.ty = ty
  }

  /// The transform that leaves every point where it is (`CGAffineTransform.identity`).
  public static let identity = AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)

  /// A transform that moves every point by `x` points across and `y` points down
  /// (`CGAffineTransform(translationX:y:)`).
  public init(translationX x: Double, y: Double) {
    self.init(a: 1, b: 0, c: 0, d: 1, tx: x, ty: y)
  }

  /// A transform that scales x and y by the two factors, about the origin
  /// (`CGAffineTransform(scaleX:y:)`).
  public init(scaleX sx: Double, y sy: Double) {
    self.init(a: sx, b: 0, c: 0, d: sy, tx: 0, ty: 0)
  }

  /// A rotation by `angle` radians; positive turns clockwise on screen (y
  /// grows downward), as in UIKit.
  public init(rotationAngle angle: Double) {
    let sine = Trigonometry.sin(angle)
    let cosine = Trigonometry.cos(angle)
    self.init(a: cosine, b: sine, c: -sine, d: cosine, tx: 0, ty: 0)
  }

  /// Whether this is exactly ``identity``.
  public var isIdentity: Bool { self == .identity }

  /// Whether the transform only moves points (no scale, rotation or shear).
  public var isTranslation: Bool { a == 1 && b == 0 && c == 0 && d == 1 }

  /// `self` first, then `other` (CGAffineTransform's `concatenating`).
  public func concatenating(_ other: AffineTransform) -> AffineTransform {
    AffineTransform(
      a: a * other.a + b * other.c, b: a * other.b + b * other.d,
      c: c * other.a + d * other.c, d: c * other.b + d * other.d,
      tx: tx * other.a + ty * other.c + other.tx, ty: tx * other.b + ty * other.d + other.ty)
  }

  /// The transform that undoes this one, or nil when it flattens the plane
  /// (a zero scale), which cannot be undone.
  public func inverted() -> AffineTransform? {
    let determinant = a * d - b * c
    guard determinant != 0, determinant.isFinite else { return nil }
    let ia = d / determinant
    let ib = -b / determinant
    let ic = -c / determinant
    let id = a / determinant
    return AffineTransform(a: ia, b: ib, c: ic, d: id, tx: -(tx * ia + ty * ic), ty: -(tx * ib + ty * id))
  }

  /// Where `point` goes. A pure translation adds exactly (no rounding from
  /// multiplying by 1), so views that only move keep exact coordinates.
  public func apply(to point: Point) -> Point {
    if isTranslation { return Point(x: point.x + tx, y: point.y + ty) }
    return Point(x: a * point.x + c * point.y + tx, y: b * point.x + d * point.y + ty)
  }

  /// Where the vector `v` goes: the linear part only, no translation.
  public func applyLinear(to v: Point) -> Point {
    Point(x: a * v.x + c * v.y, y: b * v.x + d * v.y)
  }

  /// The smallest axis-aligned rectangle holding the transformed `rect`
  /// (CGRect's `applying(_:)`).
  public func apply(to rect: Rect) -> Rect {
    if isTranslation { return Rect(origin: apply(to: rect.origin), size: rect.size) }
    let p = apply(to: rect.origin)
    let q = apply(to: Point(x: rect.maxX, y: rect.minY))
    let r = apply(to: Point(x: rect.minX, y: rect.maxY))
    let t = apply(to: Point(x: rect.maxX, y: rect.maxY))
    let minX = min(min(p.x, q.x), min(r.x, t.x))
    let minY = min(min(p.y, q.y), min(r.y, t.y))
    let maxX = max(max(p.x, q.x), max(r.x, t.x))
    let maxY = max(max(p.y, q.y), max(r.y, t.y))
    return Rect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
  }

  /// How much the transform scales lengths on average: the square root of
  /// the area it scales by. Exact for a uniform scale with any rotation.
  public var lengthScale: Double {
    let determinant = a * d - b * c
    return determinant < 0 ? (-determinant).squareRoot() : determinant.squareRoot()
  }
}
