/// When a drawing's log is folded into its snapshot.
///
/// Folding costs what the drawing costs to decode and encode (about 0.3 s
/// of CPU at 100,000 lines), and so does reading a drawing whose log is not
/// empty; appending costs the same whatever the log's length. So logs are
/// left to grow to `maximumLogCount` changes or `maximumLogBytes` bytes,
/// then folded in the background `delay` after the append that got them
/// there (appends meanwhile ride along). Reading a drawing folds its log
/// too (`DrawingStore.loadDocument`), all of it: a read already paid for the
/// whole fold, and reads after it get the stored text without decoding.
///
/// The background fold keeps the last `keptChanges` changes in the log
/// (unless the log is over `maximumLogBytes`: then it folds them all), so
/// that a live room or client a little behind can still read what it lacks
/// instead of being sent `reset` and reading the whole document: under 100
/// clients on two servers a room was a few hundred revisions behind when a
/// compaction folded past it, and every client of that server was reset.
public struct CompactionPolicy: Hashable, Sendable {
  public var maximumLogCount: Int
  public var maximumLogBytes: Int
  public var delay: Duration
  /// False: only `DrawingStore.compact` folds a log (tests).
  public var isAutomatic: Bool
  /// The changes a background fold leaves in the log (by count; not when
  /// the log is over `maximumLogBytes`). `compact` folds everything.
  public var keptChanges: Int

  public init(
    maximumLogCount: Int, maximumLogBytes: Int, delay: Duration, isAutomatic: Bool = true, keptChanges: Int = 0
  ) {
    self.maximumLogCount = maximumLogCount
    self.maximumLogBytes = maximumLogBytes
    self.delay = delay
    self.isAutomatic = isAutomatic
    self.keptChanges = keptChanges
  }

  public static let automatic = CompactionPolicy(
    maximumLogCount: 256, maximumLogBytes: 1 << 20, delay: .milliseconds(500), keptChanges: 1024)

  public static let manual = CompactionPolicy(
    maximumLogCount: .max, maximumLogBytes: .max, delay: .zero, isAutomatic: false)

  /// The log length at which a fold is due: `maximumLogCount` beyond the
  /// changes it keeps.
  var dueLogCount: Int { maximumLogCount + keptChanges }

  func isDue(logCount: Int, logBytes: Int) -> Bool {
    isAutomatic && logCount > 0 && (logCount >= dueLogCount || logBytes >= maximumLogBytes)
  }

  /// The changes a background fold of a log of `logBytes` leaves.
  func kept(logBytes: Int) -> Int { logBytes >= maximumLogBytes ? 0 : keptChanges }
}
