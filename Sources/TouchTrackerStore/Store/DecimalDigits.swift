/// A number as the API writes it (a revision, a list cursor's time, a page
/// size): ASCII digits only. Swift's `Int(_:)` alone also takes a sign
/// (`+3`, `-0`), which no client is told to send and a cache or proxy
/// comparing the text would see as another value.
public enum DecimalDigits {
  /// The most digits taken: every revision and every time in microseconds
  /// fits, and `Int` cannot overflow.
  public static let maximumCount = 18

  /// `text` as a number, or nil unless it is 1 to `maximumCount` ASCII digits.
  public static func value<Text: StringProtocol>(_ text: Text) -> Int? {
    guard (1...maximumCount).contains(text.utf8.count),
      text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
    else { return nil }
    return Int(text)
  }
}
