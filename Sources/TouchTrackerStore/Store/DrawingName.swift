/// The name a drawing is saved under: 1 to 64 of `A-Z a-z 0-9 _ -`, so it is
/// safe in a URL path, a query string and a file name without escaping.
public struct DrawingName: Hashable, Comparable, Sendable, CustomStringConvertible {
  public static let maximumLength = 64

  public let rawValue: String

  public init(_ text: String) throws(DrawingNameError) {
    let utf8 = text.utf8
    guard (1...Self.maximumLength).contains(utf8.count), utf8.allSatisfy(Self.isAllowed) else {
      throw DrawingNameError(name: text)
    }
    rawValue = text
  }

  public var description: String { rawValue }

  public static func < (a: DrawingName, b: DrawingName) -> Bool { a.rawValue < b.rawValue }

  private static func isAllowed(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"):
      true
    default:
      false
    }
  }
}

/// A name that is not a valid `DrawingName`.
public struct DrawingNameError: Error, Hashable, Sendable, CustomStringConvertible {
  public let name: String

  public init(name: String) {
    self.name = name
  }

  public var description: String {
    "Invalid drawing name '\(name)': use 1 to \(DrawingName.maximumLength) letters, digits, '_' or '-'"
  }
}
