/// When a drawing's log is folded into its snapshot.
///
/// Folding costs what the drawing costs to decode and encode (about 0.3 s
/// of CPU at 100,000 lines), and so does reading a drawing whose log is not
/// empty; appending costs the same whatever the log's length. So logs are
/// left to grow to `maximumLogCount` changes or `maximumLogBytes` bytes,
/// then folded in the background `delay` after the append that got them
/// there (appends meanwhile ride along). Reading a drawing folds its log
/// too (`DrawingStore.loadDocument`).
public struct CompactionPolicy: Hashable, Sendable {
  public var maximumLogCount: Int
  public var maximumLogBytes: Int
  public var delay: Duration
  /// False: only `DrawingStore.compact` folds a log (tests).
  public var isAutomatic: Bool

  public init(maximumLogCount: Int, maximumLogBytes: Int, delay: Duration, isAutomatic: Bool = true) {
    self.maximumLogCount = maximumLogCount
    self.maximumLogBytes = maximumLogBytes
    self.delay = delay
    self.isAutomatic = isAutomatic
  }

  public static let automatic = CompactionPolicy(
    maximumLogCount: 256, maximumLogBytes: 1 << 20, delay: .milliseconds(500))

  public static let manual = CompactionPolicy(
    maximumLogCount: .max, maximumLogBytes: .max, delay: .zero, isAutomatic: false)

  func isDue(logCount: Int, logBytes: Int) -> Bool {
    isAutomatic && logCount > 0 && (logCount >= maximumLogCount || logBytes >= maximumLogBytes)
  }
}
