import Foundation
import GRDB
import TouchTrackerCore

/// A drawing as stored, read in one transaction: its summary row, snapshot
/// and every change after the snapshot, checked against their checksums.
struct LogState {
  var head: DrawingRecord
  var snapshot: SnapshotRecord
  var changes: [ChangeRecord]

  /// Nil for a drawing that does not exist.
  static func read(_ name: DrawingName, in db: Database) throws -> LogState? {
    guard let head = try DrawingRecord.fetchOne(db, key: name.rawValue), !head.isDeleted else { return nil }
    // A live drawing always has a snapshot, and a change for every revision
    // after it: anything else is a damaged (or hand-edited) file.
    guard let snapshot = try SnapshotRecord.fetchOne(db, key: name.rawValue) else {
      throw DrawingStoreError.damaged(name: name.rawValue)
    }
    var changes: [ChangeRecord] = []
    if head.logCount > 0 {
      changes = try ChangeRecord.fetchAll(
        db, sql: "SELECT * FROM drawingChange WHERE name = ? AND revision > ? ORDER BY revision",
        arguments: [name.rawValue, head.snapshotRevision]
      ).map { try $0.verified() }
    }
    guard changes.count == head.logCount, changes.last.map({ $0.revision == head.revision }) ?? true else {
      throw DrawingStoreError.damaged(name: name.rawValue)
    }
    return LogState(head: head, snapshot: snapshot, changes: changes)
  }

  /// The snapshot with every change applied in revision order.
  func replayed() throws -> Drawing {
    try replaying(through: head.revision) { _ in }
  }

  /// The snapshot with every change applied in revision order, `atFold`
  /// called with the drawing at `fold` on the way.
  private func replaying(through fold: Int, atFold: (Drawing) -> Void) throws -> Drawing {
    let document = try snapshot.verifiedDocument()
    do {
      var replay = LogReplay(try DocumentCodec.decode(document))
      var folded = false
      for record in changes {
        if !folded, record.revision > fold {
          atFold(replay.drawing)
          folded = true
        }
        replay.apply(try ChangeCodec.decode(record.change))
      }
      if !folded { atFold(replay.drawing) }
      return replay.drawing
    } catch {
      throw DrawingStoreError.unreadable(name: head.name, reason: error.description)
    }
  }

  /// `Drawing.apply`, kept from giving one id to two shapes: an add whose
  /// id a shape of the other kind holds (a line added with a circle's id)
  /// removes that shape first, as an add of a line replaces the line with
  /// its id. `apply` replaces only shapes of the same kind, and a drawing
  /// with one id twice is a document no reader accepts: one client's
  /// mistake in the log would make the drawing unreadable for everyone.
  /// (An add naming one id twice is refused before it is stored.)
  static func replay(_ change: Change, on drawing: inout Drawing) {
    if case .add(let lines, let circles, _) = change {
      if !lines.isEmpty, !drawing.circles.isEmpty {
        let ids = Set(lines.map(\.id))
        drawing.circles.removeAll { ids.contains($0.id) }
      }
      if !circles.isEmpty, !drawing.lines.isEmpty {
        let ids = Set(circles.map(\.id))
        drawing.lines.removeAll { ids.contains($0.id) }
      }
    }
    drawing.apply(change)
  }

  /// The drawing at `head.revision` as a new snapshot.
  func folded() throws -> Folded {
    try folded(through: head.revision)
  }

  /// The drawing as a new snapshot with all but the last `kept` changes
  /// folded in; nil when that folds none.
  func folded(keeping kept: Int) throws -> Folded? {
    let revision = head.revision - max(0, kept)
    guard revision > head.snapshotRevision else { return nil }
    return try folded(through: revision)
  }

  /// The snapshot at `revision`, with the counts of the drawing at
  /// `head.revision` (the kept changes replayed too: they are few, and the
  /// summary's counts become exact, as a fold of everything makes them).
  private func folded(through revision: Int) throws -> Folded {
    var document = ""
    let drawing = try replaying(through: revision) { document = DocumentCoder.encodeString($0) }
    return Folded(
      snapshot: SnapshotRecord(name: head.name, document: document), revision: revision,
      lineCount: drawing.lines.count, circleCount: drawing.circles.count, countedAt: head.revision)
  }
}

/// `LogState.replay` over a whole log, with the ids present at hand: an add
/// of ids the drawing does not hold yet (nearly every add) is inserted
/// without the pass over every line and circle that looks for shapes it
/// replaces, and a delete of an absent id scans nothing. Replaying k changes
/// onto n lines cost n * k before (a compaction of 1,000 adds at 20,000
/// lines: 20 M line visits, 13% of a live server's CPU); now n + k for adds.
/// The drawing is the same as `LogState.replay`'s, change by change
/// (`DrawingStoreCompactionTests`).
struct LogReplay {
  private(set) var drawing: Drawing
  private var lineIDs: Set<ShapeID>
  private var circleIDs: Set<ShapeID>

  init(_ drawing: Drawing) {
    self.drawing = drawing
    lineIDs = Set(drawing.lines.map(\.id))
    circleIDs = Set(drawing.circles.map(\.id))
  }

  private func isFresh(_ id: ShapeID) -> Bool { !lineIDs.contains(id) && !circleIDs.contains(id) }

  mutating func apply(_ change: Change) {
    switch change {
    case .add(let lines, let circles, let position):
      if lines.allSatisfy({ isFresh($0.id) }) && circles.allSatisfy({ isFresh($0.id) }) {
        drawing.lines.insert(contentsOf: lines, at: min(max(position ?? drawing.lines.count, 0), drawing.lines.count))
        drawing.circles.append(contentsOf: circles)
      } else {
        LogState.replay(change, on: &drawing)
        // A line takes its id from a circle, and a circle from a line.
        for line in lines { circleIDs.remove(line.id) }
        for circle in circles { lineIDs.remove(circle.id) }
      }
      lineIDs.formUnion(lines.lazy.map(\.id))
      circleIDs.formUnion(circles.lazy.map(\.id))
    case .deleteLine(let id):
      if lineIDs.remove(id) != nil { drawing.apply(change) }
    case .deleteCircle(let id):
      if circleIDs.remove(id) != nil { drawing.apply(change) }
    case .moveLine(let id, _, _):
      if lineIDs.contains(id) { drawing.apply(change) }
    case .moveCircle(let id, _):
      if circleIDs.contains(id) { drawing.apply(change) }
    case .clear:
      lineIDs.removeAll()
      circleIDs.removeAll()
      drawing.apply(change)
    }
  }
}

/// A drawing's snapshot and log folded into one document at `revision`.
struct Folded: Sendable {
  var snapshot: SnapshotRecord
  var revision: Int
  /// The counts of the drawing at `countedAt` (at or after `revision`).
  var lineCount: Int
  var circleCount: Int
  var countedAt: Int
}

/// The compactions under way, at most one per drawing. A class with a lock
/// rather than an actor so that `DrawingStore.init` can register the
/// compactions it starts before it returns (`idle` then waits for them).
final class CompactionScheduler: @unchecked Sendable {
  private let lock = NSLock()
  private var running: [String: Task<Void, Never>] = [:]
  /// Work asked for under a key while work under it was under way: run once more after it.
  private var again: [String: @Sendable () async -> Void] = [:]

  /// Starts `work` under `key`; if work under that key is under way, runs
  /// `work` once after it (however often it was asked for meanwhile): a fold
  /// that found its drawing's log within its limits may have read it just
  /// before the append that took it past them asked.
  func schedule(_ key: String, _ work: @escaping @Sendable () async -> Void) {
    lock.lock()
    defer { lock.unlock() }
    guard running[key] == nil else {
      again[key] = work
      return
    }
    start(key, work)
  }

  /// Under the lock.
  private func start(_ key: String, _ work: @escaping @Sendable () async -> Void) {
    running[key] = Task {
      await work()
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

extension DrawingStore {
  /// Folds the log of `name` into a new snapshot at its current revision
  /// and deletes the log rows it folded; returns that revision, or nil if
  /// there was nothing to fold (no drawing, an empty log, or the drawing was
  /// replaced meanwhile).
  ///
  /// The slow part (decode, apply, encode) runs outside the write lock, so
  /// appends go on meanwhile; the rows they add stay in the log, after the
  /// new snapshot. `lineCount` and `circleCount` become exact unless such
  /// rows came, until the next compaction.
  @discardableResult
  public func compact(_ name: DrawingName) async throws -> Int? {
    try await compact(name, keepingByPolicy: false, afterReading: {})
  }

  /// `compact`, with `afterReading` run between reading the log and storing
  /// the snapshot: tests append there. `keepingByPolicy`: leave the changes
  /// the policy keeps (`CompactionPolicy.keptChanges`), as the background
  /// fold does.
  func compact(
    _ name: DrawingName, keepingByPolicy: Bool, afterReading: @Sendable () async throws -> Void
  ) async throws -> Int? {
    let policy = compaction
    let folded = try await database.read { db -> Folded? in
      // The background fold reads the summary first: a log within its
      // drawing's limits (a big drawing's may grow further) is left alone
      // without reading the drawing.
      if keepingByPolicy {
        guard let head = try DrawingRecord.fetchOne(db, key: name.rawValue), policy.isDue(head) else { return nil }
      }
      guard let state = try LogState.read(name, in: db), !state.changes.isEmpty else { return nil }
      return try state.folded(keeping: keepingByPolicy ? policy.kept(state.head) : 0)
    }
    guard let folded else { return nil }
    try await afterReading()
    return try await store(folded) ? folded.revision : nil
  }

  /// Stores `folded` as the snapshot and deletes the log rows up to its
  /// revision, unless the drawing moved on in a way that makes it wrong.
  ///
  /// Why the check is enough: revisions only grow, and `save` and `delete`
  /// (which replace or drop the snapshot) set `snapshotRevision` to their
  /// own revision, above every revision there was when `folded` was read.
  /// So while `snapshotRevision` is below `folded.revision` and the drawing
  /// exists, only appends (rows after it) and other compactions (at or
  /// below it) have happened since, and every row up to `folded.revision`
  /// is one `folded` replayed.
  func store(_ folded: Folded) async throws -> Bool {
    let name = folded.snapshot.name
    return try await writeTransaction { db in
      guard var head = try DrawingRecord.fetchOne(db, key: name), !head.isDeleted,
        head.snapshotRevision < folded.revision, folded.revision <= head.revision
      else { return false }
      try folded.snapshot.save(db)
      try db.execute(
        sql: "DELETE FROM drawingChange WHERE name = ? AND revision <= ?", arguments: [name, folded.revision])
      if head.revision == folded.countedAt {
        head.lineCount = folded.lineCount
        head.circleCount = folded.circleCount
      }
      head.snapshotRevision = folded.revision
      head.logBytes =
        try Int.fetchOne(
          db, sql: "SELECT COALESCE(SUM(length(CAST(change AS BLOB))), 0) FROM drawingChange WHERE name = ?",
          arguments: [name]) ?? 0
      try head.update(db)
      try db.execute(
        sql: "DELETE FROM drawingBatch WHERE name = ? AND revision <= ?",
        arguments: [name, folded.revision - Self.keptBatchRevisions])
      return true
    }
  }

  /// Compacts `name` after `compaction.delay`, unless that is under way.
  /// A failure leaves the log as it is (reading replays it); the next
  /// append past the limits tries again.
  func scheduleCompaction(of name: DrawingName) {
    let delay = compaction.delay
    compactions.schedule(name.rawValue) { [self] in
      try? await Task.sleep(for: delay)
      _ = try? await compact(name, keepingByPolicy: true, afterReading: {})
    }
  }

  /// Schedules every drawing whose log is past the limits (at start: the
  /// server may have stopped before it compacted them).
  func scheduleDueCompactions() async {
    let policy = compaction
    let names =
      (try? await database.read { db in
        try String.fetchAll(
          db,
          sql: "SELECT name FROM drawing WHERE NOT isDeleted AND revision > snapshotRevision"
            + " AND (revision - snapshotRevision >= ? OR logBytes >= ?)",
          arguments: [policy.dueLogCount, policy.maximumLogBytes])
      }) ?? []
    // The fold itself checks each drawing's own limits (`CompactionPolicy.isDue(_:)`).
    for name in names {
      guard let name = try? DrawingName(name) else { continue }
      scheduleCompaction(of: name)
    }
  }

  /// Returns once no compaction is under way (tests, benchmarks).
  public func waitForCompactions() async {
    await compactions.idle()
  }
}
