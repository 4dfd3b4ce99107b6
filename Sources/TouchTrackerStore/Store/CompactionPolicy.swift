/// When a drawing's log is folded into its snapshot.
///
/// Folding costs what the drawing costs to decode and encode (about 0.3 s
/// of CPU at 100,000 lines), and so does reading a drawing whose log is not
/// empty; appending costs the same whatever the log's length. So logs are
/// left to grow to `maximumLogCount` changes or `maximumLogBytes` bytes,
/// then folded in the background `delay` after the append that got them
/// there (appends meanwhile ride along). Reading a drawing folds its log
/// too (`SQLiteDrawingStore.loadDocument`), all of it: a read already paid for the
/// whole fold, and reads after it get the stored text without decoding.
///
/// The background fold keeps the last `keptChanges` changes in the log
/// (unless the log is over `maximumLogBytes`: then it folds them all), so
/// that a live room or client a little behind can still read what it lacks
/// instead of being sent `reset` and reading the whole document: under 100
/// clients on two servers a room was a few hundred revisions behind when a
/// compaction folded past it, and every client of that server was reset.
///
/// A big drawing's log may grow further, by `growth` changes (and
/// `bytesPerShape` times that in bytes) per shape it holds: a fold costs
/// what the whole drawing costs, so folding every few hundred changes cost a
/// 100,000-line drawing ~1 ms of CPU per line saved, on top of the save;
/// with the log allowed a quarter of the drawing, a fold comes once per
/// ~25,000 changes there (amortized, a constant per change whatever the
/// size), and reading the drawing replays at most about a quarter more
/// than its snapshot. Appends check only the flat limits (they do not know
/// the drawing's size); the background fold reads the drawing's summary
/// first and leaves a log within its drawing's limits alone.
public struct CompactionPolicy: Hashable, Sendable {
  public var maximumLogCount: Int
  public var maximumLogBytes: Int
  public var delay: Duration
  /// False: only `SQLiteDrawingStore.compact` folds a log (tests).
  public var isAutomatic: Bool
  /// The changes a background fold leaves in the log (by count; not when
  /// the log is over `maximumLogBytes`). `compact` folds everything.
  public var keptChanges: Int
  /// Changes the log may hold beyond the flat limits per shape (line or
  /// circle) of the drawing; 0: the flat limits alone.
  public var growth: Double
  /// What a shape's share of the log may take in bytes (a line in a document is ~100 B).
  public static let bytesPerShape = 128

  public init(
    maximumLogCount: Int, maximumLogBytes: Int, delay: Duration, isAutomatic: Bool = true, keptChanges: Int = 0,
    growth: Double = 0
  ) {
    self.maximumLogCount = maximumLogCount
    self.maximumLogBytes = maximumLogBytes
    self.delay = delay
    self.isAutomatic = isAutomatic
    self.keptChanges = keptChanges
    self.growth = growth
  }

  public static let automatic = CompactionPolicy(
    maximumLogCount: 256, maximumLogBytes: 1 << 20, delay: .milliseconds(500), keptChanges: 1024, growth: 0.25)

  public static let manual = CompactionPolicy(
    maximumLogCount: .max, maximumLogBytes: .max, delay: .zero, isAutomatic: false)

  /// The log length at which a fold is due: `maximumLogCount` beyond the
  /// changes it keeps.
  var dueLogCount: Int { maximumLogCount + keptChanges }

  /// Whether a log this long is past the flat limits (those of an empty
  /// drawing): what an append checks.
  func isDue(logCount: Int, logBytes: Int) -> Bool { isDue(logCount: logCount, logBytes: logBytes, shapes: 0) }

  /// The changes a drawing of `shapes` lines and circles may have in its log beyond the flat limits.
  func grown(shapes: Int) -> Int { Int(min(Double(max(shapes, 0)) * growth, 1e15)) }

  /// The log length at which a fold of a drawing of `shapes` is due.
  func dueLogCount(shapes: Int) -> Int { Self.sum(dueLogCount, grown(shapes: shapes)) }

  /// The log size in bytes at which a fold of a drawing of `shapes` is due, and folds everything.
  func maximumLogBytes(shapes: Int) -> Int {
    Self.sum(maximumLogBytes, grown(shapes: shapes).multipliedReportingOverflow(by: Self.bytesPerShape).partialValue)
  }

  /// Whether the log of a drawing of `shapes` is past its limits: what the background fold checks.
  func isDue(logCount: Int, logBytes: Int, shapes: Int) -> Bool {
    isAutomatic && logCount > 0
      && (logCount >= dueLogCount(shapes: shapes) || logBytes >= maximumLogBytes(shapes: shapes))
  }

  /// The changes a background fold of a log of `logBytes` of a drawing of `shapes` leaves.
  func kept(logBytes: Int, shapes: Int) -> Int { logBytes >= maximumLogBytes(shapes: shapes) ? 0 : keptChanges }

  /// `isDue(logCount:logBytes:shapes:)` of a drawing's summary.
  func isDue(_ head: DrawingRecord) -> Bool {
    !head.isDeleted
      && isDue(
        logCount: head.revision - head.snapshotRevision, logBytes: head.logBytes,
        shapes: head.lineCount + head.circleCount)
  }

  /// `kept(logBytes:shapes:)` of a drawing's summary.
  func kept(_ head: DrawingRecord) -> Int { kept(logBytes: head.logBytes, shapes: head.lineCount + head.circleCount) }

  /// `a + b`, or `Int.max` past it (`.manual`'s limits are `.max`).
  private static func sum(_ a: Int, _ b: Int) -> Int {
    let (total, overflow) = a.addingReportingOverflow(b)
    return overflow ? .max : total
  }
}
