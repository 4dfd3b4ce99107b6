import Foundation
import GRDB
import NIOConcurrencyHelpers
import Testing
import TouchTrackerCore

@testable import TouchTrackerStore

/// Folding a log into a new snapshot: the same drawing for every reader,
/// nothing lost to an append, a save or a delete that lands meanwhile, and
/// when it runs by itself.
@Suite struct DrawingStoreCompactionTests: ChangeLogTesting {
  /// For random changes, the same document three ways, byte for byte:
  /// snapshot plus log replayed, the compacted snapshot, and the changes
  /// applied in memory; with compactions at random points in between.
  @Test(arguments: StoreBackend.available, [1, 2, 3, 4, 5] as [UInt64])
  func compactionChangesNothingAReaderSees(_ backend: StoreBackend, seed: UInt64) async throws {
    try await Self.withStore(backend) { store, _ in
      var generator = ChangeGenerator(seed: seed)
      var revision = 0
      for round in 0..<30 {
        let batch = (0..<Int.random(in: 1...6, using: &generator.random)).map { _ in generator.next() }
        revision = try await store.append(batch, to: Self.name, ifRevision: revision)
        let expected = Self.document(generator.drawing)
        #expect(Self.text(try await store.loadDocument(Self.name)) == expected, "seed \(seed) round \(round)")
        if Int.random(in: 0..<4, using: &generator.random) == 0 {
          #expect(try await store.compact(Self.name) == revision)
          #expect(try await Self.log(of: store) == (revision, []))
          #expect(Self.text(try await store.loadDocument(Self.name)) == expected, "seed \(seed) round \(round)")
          let summary = try #require(try await store.list().first)
          #expect(summary.lineCount == generator.drawing.lines.count)
          #expect(summary.circleCount == generator.drawing.circles.count)
        }
      }
      try await store.compact(Self.name)
      #expect(Self.text(try await store.loadDocument(Self.name)) == Self.document(generator.drawing))
      #expect(try await store.load(Self.name)?.drawing == generator.drawing)
    }
  }

  /// Compaction's replay (`LogReplay`, which skips the search for shapes an
  /// add replaces when its ids are new) gives the drawing the plain replay
  /// gives, change by change: adds of new and present ids at positions,
  /// a line added with a circle's id and the other way round, deletes and
  /// moves of present and absent ids, clears.
  @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
  func compactionsReplayEqualsThePlainReplay(seed: UInt64) {
    var generator = ChangeGenerator(seed: seed)
    for _ in 0..<40 { _ = generator.next() }
    let start = generator.drawing
    var fast = LogReplay(start)
    var plain = start
    var (onFullDrawings, acrossKinds) = (0, 0)
    for step in 0..<400 {
      var change = generator.next()
      if plain.lines.count >= 5 { onFullDrawings += 1 }
      if Int.random(in: 0..<10, using: &generator.random) == 0 {
        // Ids across kinds, which the generator never makes.
        if let circle = plain.circles.randomElement(using: &generator.random) {
          change = .add(lines: [generator.line(id: circle.id)], circles: [], at: 0)
        } else if let line = plain.lines.randomElement(using: &generator.random) {
          change = .add(lines: [], circles: [Circle(id: line.id, center: generator.point(), radius: 3)], at: nil)
        }
        acrossKinds += 1
      }
      LogState.replay(change, on: &plain)
      fast.apply(change)
      #expect(fast.drawing == plain, "seed \(seed), change \(step): \(change)")
      if fast.drawing != plain { return }
    }
    // The walk had lines to replace, move and delete, and crossed kinds.
    #expect(onFullDrawings > 100 && acrossKinds > 10, "\(onFullDrawings) on full drawings, \(acrossKinds) across kinds")
  }

  /// Appends that land while a compaction replays the log stay in the log,
  /// after the new snapshot: none is lost, none applied twice.
  @Test(arguments: StoreBackend.available)
  func anAppendDuringCompactionIsKept(_ backend: StoreBackend) async throws {
    try await Self.withStore(backend) { store, _ in
      var generator = ChangeGenerator(seed: 42)
      let first = (0..<20).map { _ in generator.next() }
      try await store.append(first, to: Self.name)
      let during = (0..<5).map { _ in generator.next() }
      let compacted = try await store.compact(Self.name) {
        let first = try await store.append(Array(during[..<3]), to: Self.name, ifRevision: 20)
        let second = try await store.append(Array(during[3...]), to: Self.name, ifRevision: 23)
        #expect(first == 23 && second == 25)
      }
      #expect(compacted == 20)
      #expect(try await Self.log(of: store) == (20, [21, 22, 23, 24, 25]))
      #expect(Self.text(try await store.loadDocument(Self.name)) == Self.document(generator.drawing))
      #expect(try await store.changes(of: Self.name, since: 20)?.changes.count == 5)
      #expect(try await store.compact(Self.name) == 25)
      #expect(Self.text(try await store.loadDocument(Self.name)) == Self.document(generator.drawing))
    }
  }

  /// Many appends racing background compactions that fire every few
  /// changes: every acknowledged change is in the drawing exactly once.
  @Test(arguments: StoreBackend.available)
  func appendsRacingBackgroundCompactionsLoseNothing(_ backend: StoreBackend) async throws {
    try await backend.withDatabase { open in
      let policy = CompactionPolicy(maximumLogCount: 3, maximumLogBytes: 1 << 20, delay: .zero)
      let store = try await open(compaction: policy)
      try await withThrowingTaskGroup(of: Void.self) { group in
        for writer in UInt64(0)..<4 {
          group.addTask {
            for index in UInt64(1)...40 { try await store.append([Self.add(writer * 1000 + index)], to: Self.name) }
          }
        }
        try await group.waitForAll()
      }
      await store.waitForCompactions()
      let stored = try #require(try await store.load(Self.name))
      #expect(stored.revision == 160)
      #expect(Set(stored.drawing.lines.map(\.id.rawValue)).count == 160)
      let (snapshotRevision, rows) = try await Self.log(of: store)
      #expect(snapshotRevision > 0, "no compaction ran; the test proves nothing")
      #expect(rows == Array((snapshotRevision + 1)..<(161)))
    }
  }

  @Test(arguments: StoreBackend.available)
  func aCompactionThatASaveOvertookStoresNothing(_ backend: StoreBackend) async throws {
    try await Self.withStore(backend) { store, _ in
      try await store.append([Self.add(1), Self.add(2)], to: Self.name)
      let imported = Drawing(lines: [Self.line(9)])
      let compacted = try await store.compact(Self.name) { try await store.save(imported, as: Self.name) }
      #expect(compacted == nil)
      #expect(try await store.load(Self.name)?.drawing == imported)
      #expect(try await Self.log(of: store) == (3, []))
    }
  }

  @Test(arguments: StoreBackend.available)
  func aCompactionThatADeleteOvertookStoresNothing(_ backend: StoreBackend) async throws {
    try await Self.withStore(backend) { store, _ in
      try await store.append([Self.add(1), Self.add(2)], to: Self.name)
      let compacted = try await store.compact(Self.name) {
        try await store.delete(Self.name)
        try await store.append([Self.add(5)], to: Self.name)
      }
      #expect(compacted == nil)
      #expect(try await store.load(Self.name)?.drawing == Self.applied([Self.add(5)]))
      #expect(try await Self.log(of: store) == (3, [4]))
    }
  }

  /// A background fold that fails (here: a damaged change in the log) is
  /// said, naming the drawing and why; before, `try?` dropped it unheard.
  @Test(arguments: StoreBackend.available)
  func aBackgroundFoldThatFailsIsReported(_ backend: StoreBackend) async throws {
    try await backend.withDatabase { open in
      let policy = CompactionPolicy(maximumLogCount: 2, maximumLogBytes: 1 << 20, delay: .zero)
      let store = try await open(compaction: policy)
      let failures = NIOLockedValueBox<[String]>([])
      store.compactions.failed = { key, error in failures.withLockedValue { $0.append("\(key): \(error)") } }
      try await store.append([Self.add(1)], to: Self.name)
      try await store.executeForTesting(
        "UPDATE drawingChange SET change = replace(change, '\"x\":1', '\"x\":7') WHERE revision = 1")
      try await store.append([Self.add(2)], to: Self.name)
      await store.waitForCompactions()
      #expect(failures.withLockedValue { $0 } == ["d: \(DrawingStoreError.damaged(name: "d"))"])
      #expect(try await Self.log(of: store) == (0, [1, 2]), "the log stays as it was")
    }
  }

  @Test(arguments: StoreBackend.available)
  func aLongLogIsCompactedInTheBackground(_ backend: StoreBackend) async throws {
    try await backend.withDatabase { open in
      let policy = CompactionPolicy(maximumLogCount: 4, maximumLogBytes: 1 << 20, delay: .zero)
      let store = try await open(compaction: policy)
      for id in UInt64(1)...3 { try await store.append([Self.add(id)], to: Self.name) }
      await store.waitForCompactions()
      #expect(try await Self.log(of: store) == (0, [1, 2, 3]))
      try await store.append([Self.add(4)], to: Self.name)
      await store.waitForCompactions()
      #expect(try await Self.log(of: store) == (4, []))
      #expect(try await store.load(Self.name)?.drawing == Self.applied((1...4).map { Self.add($0) }))
    }
  }

  /// A big drawing's log grows with it before the background fold comes
  /// (`CompactionPolicy.growth`): folding costs what the whole drawing
  /// costs, and folding every few changes made saving a line into a big
  /// drawing cost a whole fold every few lines. A drawing of 100 lines with
  /// a quarter of a change per shape: due at 4 + (100 + k) / 4 changes, so
  /// the log keeps 37 single-line appends past the flat limit of 4, and the
  /// 38th folds it.
  @Test(arguments: StoreBackend.available)
  func aBigDrawingsLogGrowsWithItBeforeTheBackgroundFold(_ backend: StoreBackend) async throws {
    try await backend.withDatabase { open in
      let policy = CompactionPolicy(maximumLogCount: 4, maximumLogBytes: 1 << 20, delay: .zero, growth: 0.25)
      let store = try await open(compaction: policy)
      let start = Drawing(lines: (1...100).map { Self.line($0) })
      #expect(try await store.save(start, as: Self.name) == 1)
      for id in UInt64(101)...137 { try await store.append([Self.add(id)], to: Self.name) }
      await store.waitForCompactions()
      #expect(try await Self.log(of: store) == (1, Array(2...38)), "within the limit of 4 + 137 / 4")
      try await store.append([Self.add(138)], to: Self.name)
      await store.waitForCompactions()
      #expect(try await Self.log(of: store) == (39, []))
      #expect(try await store.load(Self.name)?.drawing == Drawing(lines: (1...138).map { Self.line($0) }))
    }
  }

  /// Work asked for while the same key's work runs is run once after it
  /// (however often it was asked for meanwhile), not dropped: a fold that
  /// found the log within its limits may have looked just before the append
  /// that took it past them asked.
  @Test func workAskedForWhileItRunsRunsOnceMoreAfterIt() async {
    let scheduler = CompactionScheduler()
    let runs = Counter()
    let work: @Sendable () async -> Void = {
      await runs.increment()
      try? await Task.sleep(for: .milliseconds(50))
    }
    scheduler.schedule("d", work)
    scheduler.schedule("d", work)
    scheduler.schedule("d", work)
    await scheduler.idle()
    #expect(await runs.value == 2)
    scheduler.schedule("d", work)
    await scheduler.idle()
    #expect(await runs.value == 3, "nothing left over once idle")
  }

  actor Counter {
    var value = 0
    func increment() { value += 1 }
  }

  @Test func aDrawingsLimitsGrowWithItsShapes() {
    let policy = CompactionPolicy(
      maximumLogCount: 256, maximumLogBytes: 1 << 20, delay: .zero, keptChanges: 1024, growth: 0.25)
    #expect(policy.dueLogCount(shapes: 0) == 1280)
    #expect(policy.dueLogCount(shapes: 100_000) == 26_280)
    #expect(policy.maximumLogBytes(shapes: 100_000) == (1 << 20) + 25_000 * 128)
    #expect(!policy.isDue(logCount: 5_000, logBytes: 700_000, shapes: 100_000))
    #expect(policy.isDue(logCount: 5_000, logBytes: 700_000, shapes: 1_000))
    #expect(policy.isDue(logCount: 26_280, logBytes: 700_000, shapes: 100_000))
    #expect(policy.kept(logBytes: 2_000_000, shapes: 100_000) == 1024, "under its own byte limit: keeps")
    #expect(policy.kept(logBytes: 2_000_000, shapes: 1_000) == 0, "over it: folds everything")
    let flat = CompactionPolicy(maximumLogCount: 4, maximumLogBytes: 100, delay: .zero)
    #expect(flat.dueLogCount(shapes: 1_000_000) == 4, "no growth: the flat limits")
    #expect(CompactionPolicy.manual.maximumLogBytes(shapes: 1_000_000) == .max)
    #expect(!CompactionPolicy.manual.isDue(logCount: 1 << 40, logBytes: 1 << 40, shapes: 0))
  }

  /// The background fold leaves the last `keptChanges` in the log, so a
  /// reader a little behind (a live room on another server) still gets the
  /// changes it lacks rather than `changesGone` (a `reset` for its
  /// clients); it is due `maximumLogCount` changes beyond those. A log over
  /// the byte limit is folded whole.
  @Test(arguments: StoreBackend.available)
  func theBackgroundFoldKeepsTheLastChangesForReadersBehind(_ backend: StoreBackend) async throws {
    try await backend.withDatabase { open in
      let policy = CompactionPolicy(maximumLogCount: 4, maximumLogBytes: 1 << 20, delay: .zero, keptChanges: 3)
      let store = try await open(compaction: policy)
      for id in UInt64(1)...6 { try await store.append([Self.add(id)], to: Self.name) }
      await store.waitForCompactions()
      #expect(try await Self.log(of: store) == (0, [1, 2, 3, 4, 5, 6]))
      // A delete of a line that is not there: the count the append keeps
      // (one less) is wrong until a fold counts the drawing.
      let absent = Change.deleteLine(ShapeID(rawValue: 999))
      try await store.append([absent], to: Self.name)
      await store.waitForCompactions()
      #expect(try await Self.log(of: store) == (4, [5, 6, 7]))
      #expect(try await store.changes(of: Self.name, since: 4)?.changes.map(\.revision) == [5, 6, 7])
      await #expect(throws: DrawingStoreError.changesGone(name: "d", since: 3, snapshotRevision: 4, current: 7)) {
        try await store.changes(of: Self.name, since: 3)
      }
      #expect(try await store.load(Self.name)?.drawing == Self.applied((1...6).map { Self.add($0) } + [absent]))
      // The fold counted the drawing at its head, kept changes included.
      let summary = try #require(try await store.list().first)
      #expect(summary.lineCount == 6)
      // Over the byte limit: folded whole.
      let byBytes = CompactionPolicy(maximumLogCount: 1000, maximumLogBytes: 10_000, delay: .zero, keptChanges: 3)
      let other = try await open(compaction: byBytes)
      try await other.append([.add(lines: (100...300).map { Self.line($0) }, circles: [], at: nil)], to: Self.name)
      await other.waitForCompactions()
      #expect(try await Self.log(of: other) == (8, []))
    }
  }

  @Test(arguments: StoreBackend.available)
  func aLargeChangeIsCompactedInTheBackground(_ backend: StoreBackend) async throws {
    try await backend.withDatabase { open in
      let policy = CompactionPolicy(maximumLogCount: 1000, maximumLogBytes: 10_000, delay: .zero)
      let store = try await open(compaction: policy)
      try await store.append([.add(lines: (1...200).map { Self.line($0) }, circles: [], at: nil)], to: Self.name)
      await store.waitForCompactions()
      #expect(try await Self.log(of: store) == (1, []))
    }
  }

  @Test(arguments: StoreBackend.available)
  func longLogsAreCompactedWhenTheStoreOpens(_ backend: StoreBackend) async throws {
    try await backend.withDatabase { open in
      do {
        let store = try await open(compaction: .manual)
        for id in UInt64(1)...6 { try await store.append([Self.add(id)], to: Self.name) }
        try await store.append([Self.add(1)], to: DrawingName("short"))
      }
      let policy = CompactionPolicy(maximumLogCount: 5, maximumLogBytes: 1 << 20, delay: .zero)
      let store = try await open(compaction: policy)
      await store.waitForCompactions()
      #expect(try await Self.log(of: store) == (6, []))
      #expect(try await Self.log(of: store, DrawingName("short")) == (0, [1]))
    }
  }

  @Test(arguments: StoreBackend.available)
  func readingADrawingWithALogStoresItsSnapshotWhenCompactionIsAutomatic(_ backend: StoreBackend) async throws {
    try await backend.withDatabase { open in
      let store = try await open()
      try await store.append([Self.add(1), Self.add(2)], to: Self.name)
      #expect(try await Self.log(of: store) == (0, [1, 2]))
      let document = try await store.loadDocument(Self.name)
      await store.waitForCompactions()
      #expect(try await Self.log(of: store) == (2, [1, 2]), "the rows stay behind the snapshot")
      #expect(try await store.loadDocument(Self.name) == document)
    }
  }

  /// A read folds the whole log (the next read is then the snapshot's text
  /// as stored), but keeps the changes it folded as rows behind the
  /// snapshot: a client one revision behind, back after someone opened the
  /// drawing, still gets the change it lacks rather than `changesGone` (a
  /// `reset`, and the whole document read again). The next fold (here a
  /// full one) takes them with it.
  @Test(arguments: StoreBackend.available)
  func aReadKeepsTheChangesItFoldsForReadersBehind(_ backend: StoreBackend) async throws {
    try await backend.withDatabase { open in
      let policy = CompactionPolicy(maximumLogCount: 100, maximumLogBytes: 1 << 20, delay: .zero, keptChanges: 3)
      let store = try await open(compaction: policy)
      for id in UInt64(1)...5 { try await store.append([Self.add(id)], to: Self.name) }
      let document = try #require(try await store.loadDocument(Self.name))
      await store.waitForCompactions()
      #expect(try await Self.log(of: store) == (5, [3, 4, 5]))
      #expect(try await store.loadDocument(Self.name) == document)
      for since in 2...5 {
        #expect(try await store.changes(of: Self.name, since: since)?.changes.map(\.revision) == Array(since + 1..<6))
      }
      await #expect(throws: DrawingStoreError.changesGone(name: "d", since: 1, snapshotRevision: 5, current: 5)) {
        try await store.changes(of: Self.name, since: 1)
      }
      await #expect(throws: DrawingStoreError.changesGone(name: "d", since: 6, snapshotRevision: 5, current: 5)) {
        try await store.changes(of: Self.name, since: 6)
      }
      // Appends after it are the log (replayed by reads); the rows behind are not.
      try await store.append([Self.add(6)], to: Self.name)
      #expect(try await store.changes(of: Self.name, since: 3)?.changes.map(\.revision) == [4, 5, 6])
      #expect(try await store.load(Self.name)?.drawing == Self.applied((1...6).map { Self.add($0) }))
      #expect(try await store.compact(Self.name) == 6)
      #expect(try await Self.log(of: store) == (6, []))
      await #expect(throws: DrawingStoreError.changesGone(name: "d", since: 5, snapshotRevision: 6, current: 6)) {
        try await store.changes(of: Self.name, since: 5)
      }
    }
  }
}
