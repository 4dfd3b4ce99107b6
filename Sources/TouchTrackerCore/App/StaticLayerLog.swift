/// What changed in the static layer at each of its recent versions, so a host
/// that painted an older version repaints only what changed since.
///
/// Bounded: it keeps at most `limit` changes, and once full the older half
/// goes. A host further behind than what is left repaints the whole layer
/// (also the right answer after that many changes); a host a frame behind
/// always finds what changed since, even when one frame brought several
/// changes across the moment the log filled up.
struct StaticLayerLog {
  struct Entry {
    let version: Int
    /// The rectangle it touched; nil for everything.
    let damage: Rect?
    /// It only appended one line at the end of the drawing.
    let isAppend: Bool
  }

  static let limit = 64
  private(set) var entries: [Entry] = []

  mutating func record(version: Int, damage: Rect?, isAppend: Bool) {
    if damage == nil {
      // After a change to everything, nothing older can be repainted in part.
      entries.removeAll(keepingCapacity: true)
    } else if entries.count >= Self.limit {
      entries.removeFirst(Self.limit / 2)
    }
    entries.append(Entry(version: version, damage: damage, isAppend: isAppend))
  }

  /// Where the changes after `version` (up to the newest, `current`) start in
  /// `entries`: they are `entries[start...]`. Nil when the log does not reach
  /// back that far (the host must repaint everything).
  func start(after version: Int, current: Int) -> Int? {
    guard version <= current else { return nil }
    if version == current { return entries.count }
    let start = entries.count - (current - version)
    guard start >= 0, entries[start].version == version + 1 else { return nil }
    return start
  }
}
