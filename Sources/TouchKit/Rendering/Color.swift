/// An opaque sRGB color, 8 bits a channel: what the document stores as
/// lowercase `#rrggbb`.
public struct Color: Hashable, Sendable {
  /// The red channel, 0 to 255.
  public var red: UInt8
  /// The green channel, 0 to 255.
  public var green: UInt8
  /// The blue channel, 0 to 255.
  public var blue: UInt8

  /// A color of the given channels, each 0 to 255.
  public init(red: UInt8, green: UInt8, blue: UInt8) {
    self.red = red
    self.green = green
    self.blue = blue
  }

  /// The color as one 24-bit integer `0xRRGGBB`; exact in a Float32, which is
  /// how render commands carry it to the browser.
  public var rgb: UInt32 { UInt32(red) << 16 | UInt32(green) << 8 | UInt32(blue) }

  /// The color of a 24-bit integer `0xRRGGBB`; bits above those are ignored.
  public init(rgb: UInt32) {
    self.init(red: UInt8((rgb >> 16) & 0xff), green: UInt8((rgb >> 8) & 0xff), blue: UInt8(rgb & 0xff))
  }

  /// Lowercase `#rrggbb`, the document format's spelling.
  public var hex: String {
    let digits: [Character] = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "a", "b", "c", "d", "e", "f"]
    var text = "#"
    for channel in [red, green, blue] {
      text.append(digits[Int(channel >> 4)])
      text.append(digits[Int(channel & 0xf)])
    }
    return text
  }

  /// Parses `#rrggbb` (either case); nil for anything else.
  public init?(hex: String) {
    let bytes = Array(hex.utf8)
    guard bytes.count == 7, bytes[0] == UInt8(ascii: "#") else { return nil }
    var value: UInt32 = 0
    for byte in bytes[1...] {
      let digit: UInt8
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
      default: return nil
      }
      value = value << 4 | UInt32(digit)
    }
    self.init(rgb: value)
  }

  /// Black, `#000000`.
  public static let black = Color(rgb: 0x000000)
  /// White, `#ffffff`.
  public static let white = Color(rgb: 0xffffff)
  /// Red, `#ff0000`.
  public static let red = Color(rgb: 0xff0000)
  /// Green, `#00b000`.
  public static let green = Color(rgb: 0x00b000)
  /// Blue, `#0050ff`.
  public static let blue = Color(rgb: 0x0050ff)
  /// Orange, `#ff8c00`.
  public static let orange = Color(rgb: 0xff8c00)
  /// Purple, `#8000c0`.
  public static let purple = Color(rgb: 0x8000c0)
  /// A light gray, `#d3d3d3` (lighter than UIKit's `gray`): the title of a
  /// disabled `Button`.
  public static let gray = Color(rgb: 0xd3d3d3)
  /// A dark gray, `#404040`: a `Button`'s face.
  public static let darkGray = Color(rgb: 0x404040)
  /// A very light gray, `#f2f2f2`.
  public static let lightGray = Color(rgb: 0xf2f2f2)
}
