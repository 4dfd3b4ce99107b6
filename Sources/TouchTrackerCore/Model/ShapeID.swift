/// A line's or circle's name that never changes: moves, undo and redo, saving
/// and loading keep it, so a change can say which shape it touched.
///
/// An id is an integer from 1 to 2^53 - 1, so it survives JSON and a
/// JavaScript number exactly. Each session draws ids from its own `origin`
/// (the page picks a random one; the CLI and tests use 0), the high 32 bits,
/// and counts the low 21: two devices drawing at once do not pick the same id.
public struct ShapeID: Hashable, Comparable, Sendable {
  public let rawValue: UInt64

  /// Serials take the low 21 bits; the origin the 32 above them.
  static let serialBits: UInt64 = 21
  public static let serialLimit: UInt64 = 1 << serialBits
  /// The largest id: 2^53 - 1.
  public static let maximum = ShapeID(rawValue: (1 << 53) - 1)
  /// What a shape has before a drawing gives it an id.
  public static let unassigned = ShapeID(rawValue: 0)

  public init(rawValue: UInt64) {
    self.rawValue = rawValue
  }

  public init(origin: UInt32, serial: UInt64) {
    rawValue = UInt64(origin) << ShapeID.serialBits | serial
  }

  var origin: UInt32 { UInt32(truncatingIfNeeded: rawValue >> ShapeID.serialBits) }
  var serial: UInt64 { rawValue & (ShapeID.serialLimit - 1) }

  /// An id a document may hold.
  public var isValid: Bool { rawValue >= 1 && rawValue <= ShapeID.maximum.rawValue }

  public static func < (a: ShapeID, b: ShapeID) -> Bool { a.rawValue < b.rawValue }
}

/// Hands out ids no shape in the drawing has: the next serial of this
/// session's origin, moving to the next origin when 2^21 - 1 are used.
public struct ShapeIDSource: Hashable, Sendable {
  public private(set) var origin: UInt32
  /// The serial the next id takes (a recording writes it down, so a replay
  /// hands out the same ids).
  public private(set) var nextSerial: UInt64 = 1

  public init(origin: UInt32 = 0, nextSerial: UInt64 = 1) {
    self.origin = origin
    self.nextSerial = min(max(nextSerial, 1), ShapeID.serialLimit)
  }

  public mutating func next() -> ShapeID {
    if nextSerial >= ShapeID.serialLimit {
      origin = origin &+ 1
      nextSerial = 1
    }
    defer { nextSerial += 1 }
    return ShapeID(origin: origin, serial: nextSerial)
  }

  /// Continues after every id of this origin in `drawing`, so new ids never
  /// repeat one there (ids of other origins cannot collide with ours).
  public mutating func skip(past drawing: Drawing) {
    var highest: UInt64 = 0
    for line in drawing.lines where line.id.origin == origin { highest = max(highest, line.id.serial) }
    for circle in drawing.circles where circle.id.origin == origin { highest = max(highest, circle.id.serial) }
    nextSerial = max(nextSerial, highest + 1)
  }
}
