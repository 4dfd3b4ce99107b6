import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// One page of the drawings list (`DrawingStorage.list(_:)`): the drawings
/// newest first (the name breaks ties), `limit` at most, only those whose
/// names hold `search` (any case), after `after`, the cursor the previous
/// page ended with.
///
/// Paged by a cursor, not an offset: a page costs the same however deep
/// it is (an index range, `drawing` by `updatedAt` then `name`), and a
/// drawing saved while a client pages moves to the top without making the
/// next page repeat or skip others.
public struct DrawingListQuery: Hashable, Sendable {
  public var after: DrawingListCursor?
  public var limit: Int
  /// Lower-cased: names hold ASCII only, so "any case" is ASCII's.
  public var search: String

  /// The most a page holds.
  public static let maximumLimit = 1000

  public init(after: DrawingListCursor? = nil, limit: Int = 100, search: String = "") {
    self.after = after
    self.limit = min(max(limit, 1), Self.maximumLimit)
    self.search = search.lowercased()
  }
}

/// A page of the list, and the cursor of the next one (nil: this is the last).
public struct DrawingListPage: Hashable, Sendable {
  public var drawings: [DrawingSummary]
  public var next: DrawingListCursor?

  public init(drawings: [DrawingSummary], next: DrawingListCursor?) {
    self.drawings = drawings
    self.next = next
  }

  /// The page of `limit` out of `rows` (up to `limit + 1` of them, the
  /// extra one saying there is a next page) and the microseconds of each.
  init(rows: [(summary: DrawingSummary, microseconds: Int64)], limit: Int) {
    drawings = rows.prefix(limit).map(\.summary)
    next =
      rows.count > limit
      ? rows.prefix(limit).last.map { DrawingListCursor(updatedAt: $0.microseconds, name: $0.summary.name) } : nil
  }
}

/// Where a page of the list ends: the last drawing's `updatedAt` (in
/// microseconds since 1970, exact in both backends) and name. As text,
/// `MICROSECONDS.NAME` (`1764340000123000.sketch`), what `?after=` takes.
public struct DrawingListCursor: Hashable, Sendable, CustomStringConvertible {
  public var updatedAt: Int64
  public var name: DrawingName

  public init(updatedAt: Int64, name: DrawingName) {
    self.updatedAt = updatedAt
    self.name = name
  }

  /// Nil unless `text` is `MICROSECONDS.NAME` (1 to 18 ASCII digits: no
  /// sign) with a valid name.
  public init?(_ text: String) {
    guard let dot = text.firstIndex(of: "."), let time = DecimalDigits.value(text[..<dot]),
      let name = try? DrawingName(String(text[text.index(after: dot)...]))
    else { return nil }
    self.init(updatedAt: Int64(time), name: name)
  }

  public var description: String { "\(updatedAt).\(name)" }

  /// The microseconds of `date`, rounded to `precision` (1000 for SQLite's
  /// milliseconds: what it stored, read back exactly).
  static func microseconds(_ date: Date, precision: Int64) -> Int64 {
    Int64((date.timeIntervalSince1970 * 1_000_000 / Double(precision)).rounded()) * precision
  }

  /// `updatedAt` as `YYYY-MM-DD HH:MM:SS.fff` (SQLite's stored text,
  /// `fractionDigits` 3) or `.ffffff` (PostgreSQL's), in UTC.
  func timestampText(fractionDigits: Int) -> String {
    let perSecond: Int64 = 1_000_000
    var seconds = time_t(updatedAt / perSecond)
    var fraction = Int(updatedAt % perSecond)
    if fractionDigits == 3 { fraction /= 1000 }
    var parts = tm()
    gmtime_r(&seconds, &parts)
    func digits(_ value: Int, _ count: Int) -> String {
      let text = String(value)
      return String(repeating: "0", count: max(0, count - text.count)) + text
    }
    return
      "\(digits(Int(parts.tm_year) + 1900, 4))-\(digits(Int(parts.tm_mon) + 1, 2))-\(digits(Int(parts.tm_mday), 2)) "
      + "\(digits(Int(parts.tm_hour), 2)):\(digits(Int(parts.tm_min), 2)):\(digits(Int(parts.tm_sec), 2))."
      + digits(fraction, fractionDigits)
  }
}
