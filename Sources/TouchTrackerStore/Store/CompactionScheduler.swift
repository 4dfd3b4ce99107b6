import Foundation
import Logging
import TouchTrackerCore

/// The compactions under way, at most one per drawing. A class with a lock
/// rather than an actor so that `SQLiteDrawingStore.init` can register the
/// compactions it starts before it returns (`idle` then waits for them).
final class CompactionScheduler: @unchecked Sendable {
  private let lock = NSLock()
  private var running: [String: Task<Void, Never>] = [:]
  /// Work asked for under a key while work under it was under way: run once more after it.
  private var again: [String: @Sendable () async throws -> Void] = [:]
  private var report: @Sendable (String, any Error) -> Void = CompactionScheduler.log

  /// Told of every piece of work that fails (a fold that could not read a
  /// drawing's log or store its snapshot), with its key (the drawing's
  /// name); logs it by default. Tests listen here.
  var failed: @Sendable (String, any Error) -> Void {
    get { lock.withLock { report } }
    set { lock.withLock { report = newValue } }
  }

  static let logger = Logger(label: "touchtracker.compaction")

  /// A failed fold, as the server's log says it: the drawing is served as
  /// before (reads replay its log), and the next fold tries again.
  static func log(_ key: String, _ error: any Error) {
    logger.error(
      "Folding the change log of '\(key)' into a snapshot failed: \(error). Its log stays as it is (reads replay it); the next append past the limits tries again"
    )
  }

  /// Starts `work` under `key`; if work under that key is under way, runs
  /// `work` once after it (however often it was asked for meanwhile): a fold
  /// that found its drawing's log within its limits may have read it just
  /// before the append that took it past them asked.
  func schedule(_ key: String, _ work: @escaping @Sendable () async throws -> Void) {
    lock.lock()
    defer { lock.unlock() }
    guard running[key] == nil else {
      again[key] = work
      return
    }
    start(key, work)
  }

  /// Under the lock.
  private func start(_ key: String, _ work: @escaping @Sendable () async throws -> Void) {
    running[key] = Task {
      do {
        try await work()
      } catch is CancellationError {
      } catch {
        self.failed(key, error)
      }
      self.finished(key)
    }
  }

  private func finished(_ key: String) {
    lock.withLock {
      running[key] = nil
      if let work = again.removeValue(forKey: key) { start(key, work) }
    }
  }

  /// Returns once nothing is under way, including work scheduled meanwhile.
  func idle() async {
    while let task = lock.withLock({ running.values.first }) { await task.value }
  }
}

/// A store that folds its drawings' logs into snapshots: the scheduling
/// both backends share. Each backend reads and stores a fold its own way
/// (`compact(_:keepingByPolicy:afterReading:)`) and finds the drawings past
/// the limits its own way (`namesDueForCompaction`).
protocol CompactingStore: AnyObject, Sendable {
  var compaction: CompactionPolicy { get }
  var compactions: CompactionScheduler { get }
  /// Who hears of the folds.
  var observer: any StoreObserver { get }
  /// Folds the log of `name` (see the stores' `compact(_:)`); `keepingByPolicy`:
  /// leave the changes the policy keeps, as the background fold does.
  func compact(
    _ name: DrawingName, keepingByPolicy: Bool, afterReading: @Sendable () async throws -> Void
  ) async throws -> Int?
  /// The drawings whose logs are past the policy's limits (none when they cannot be read).
  func namesDueForCompaction() async -> [String]
}

extension CompactingStore {
  /// Compacts `name` after `compaction.delay`, unless that is under way.
  /// A failure is logged (`CompactionScheduler.failed`) and leaves the log
  /// as it is (reading replays it); the next append past the limits tries again.
  func scheduleCompaction(of name: DrawingName) {
    let delay = compaction.delay
    compactions.schedule(name.rawValue) { [self] in
      try? await Task.sleep(for: delay)
      try await observer.observeCompaction(.log) {
        try await compact(name, keepingByPolicy: true, afterReading: {}) != nil
      }
    }
  }

  /// Schedules every drawing whose log is past the limits (at start: the
  /// server may have stopped before it compacted them). The fold itself
  /// checks each drawing's own limits (`CompactionPolicy.isDue(_:)`).
  func scheduleDueCompactions() async {
    for name in await namesDueForCompaction() {
      guard let name = try? DrawingName(name) else { continue }
      scheduleCompaction(of: name)
    }
  }
}
