import Foundation
import Logging
import NIOPosix
import PostgresNIO
import Testing
import TouchTrackerCore

@testable import TouchTrackerStore

/// Group commit across drawings (`AppendGroups`, PostgreSQL): appends of
/// many drawings at once share statements, and each still gets its own
/// answer; a group that fails is tried again request by request.
@Suite struct AppendGroupsTests {
  static func line(_ x: Double) -> Change {
    .add(
      lines: [Line(id: ShapeID(rawValue: UInt64(x) + 1), begin: Point(x: x, y: 0), end: Point(x: x, y: 10))],
      circles: [], at: nil)
  }

  /// 16 drawings × 12 writers at once, each batch with a key: every drawing
  /// ends with revisions 1...12 handed out once each and all 12 lines;
  /// sending a key again answers its revision and appends nothing; a batch
  /// expecting a revision long gone is a conflict naming the current one.
  @Test(arguments: StoreBackend.available)
  func appendsOfManyDrawingsAtOnceEachGetTheirOwnAnswer(_ backend: StoreBackend) async throws {
    try await backend.withDatabase { open in
      let store = try await open()
      let names = try (0..<16).map { try DrawingName("g\($0)") }
      let revisions = try await withThrowingTaskGroup(of: (Int, Int, Int).self) { group in
        for (drawing, name) in names.enumerated() {
          for writer in 0..<12 {
            group.addTask {
              let revision = try await store.append(
                [Self.line(Double(writer))], to: name, ifRevision: nil, key: "k\(drawing)-\(writer)")
              return (drawing, writer, revision)
            }
          }
        }
        return try await group.reduce(into: [(Int, Int, Int)]()) { $0.append($1) }
      }
      for (drawing, name) in names.enumerated() {
        let mine = revisions.filter { $0.0 == drawing }
        #expect(mine.map(\.2).sorted() == Array(1...12), "drawing \(drawing)")
        let stored = try #require(try await store.load(name))
        #expect(stored.revision == 12)
        #expect(Set(stored.drawing.lines.map(\.begin.x)) == Set((0..<12).map(Double.init)))
      }
      let (drawing, writer, revision) = revisions[37]
      let again = try await store.append(
        batches: [
          ChangeBatch(changes: [Self.line(99)], key: "k\(drawing)-\(writer)", expected: nil),
          ChangeBatch(changes: [Self.line(98)], key: nil, expected: 3),
        ], to: names[drawing])
      #expect(try again[0].get() == AppendedBatch(revision: revision, count: 0))
      #expect(throws: DrawingStoreError.conflict(name: names[drawing].rawValue, expected: 3, current: 12)) {
        try again[1].get()
      }
      #expect(try await store.load(names[drawing])?.revision == 12)
      if let postgres = store as? PostgresDrawingStore {
        let counts = postgres.appendGroups.counts
        #expect(counts.statements < counts.batches, "no two appends shared a statement: \(counts)")
      }
    }
  }

  /// Records the groups it is asked to run; a group holding a request for
  /// "bad" fails whole, as a statement does; "bad" alone fails too.
  final class FakeDatabase: @unchecked Sendable {
    private let lock = NSLock()
    private var groups: [[String]] = []
    private var release: CheckedContinuation<Void, Never>?
    private var held = false

    var ran: [[String]] { lock.withLock { groups } }

    func run(_ requests: [AppendGroups.Request]) async throws -> [[AppendAnswer]] {
      let names = requests.map(\.name)
      lock.withLock { groups.append(names) }
      if names == ["first"] {
        await withCheckedContinuation { continuation in lock.withLock { release = continuation } }
      }
      struct Failed: Error {}
      if names.contains("bad") { throw Failed() }
      return requests.map { request in
        request.batches.map { _ in
          AppendAnswer(outcome: "ok", revision: request.name.count, count: 1, logCount: 1, logBytes: 1)
        }
      }
    }

    /// Lets the held first group finish, once it is running.
    func releaseFirst() async {
      while true {
        if let release = lock.withLock({ self.release }) {
          release.resume()
          return
        }
        try? await Task.sleep(for: .milliseconds(1))
      }
    }
  }

  static func request(_ name: String) throws -> AppendGroups.Request {
    AppendGroups.Request(name: name, batches: [try EncodedBatch([line(1)], key: nil)], expected: [nil])
  }

  typealias Append = Task<[AppendAnswer], any Error>

  /// Appends "first", which the database holds, then `names` one by one,
  /// which wait behind it in this order; lets "first" finish once all
  /// wait, so that they go as one group.
  static func queue(
    _ names: [String], behindFirstOn groups: AppendGroups, _ database: FakeDatabase
  ) async throws -> (first: Append, waiting: [Append]) {
    let firstRequest = try request("first")
    let first = Task { try await groups.append(firstRequest) }
    while database.ran.isEmpty { try await Task.sleep(for: .milliseconds(1)) }
    var waiting: [Append] = []
    for name in names {
      let request = try request(name)
      waiting.append(Task { try await groups.append(request) })
      while groups.waitingCount < waiting.count { try await Task.sleep(for: .milliseconds(1)) }
    }
    await database.releaseFirst()
    return (first, waiting)
  }

  /// Drawings' advisory locks are keyed by `hashtext(name)`, so two names
  /// can share one, and an order by name is not an order by lock: a group
  /// of c124435 and c142084 and one of c205747 and c291502 (c124435 and
  /// c291502 share a key, as do c142084 and c205747) took their two keys
  /// in opposite orders, and PostgreSQL broke the deadlock after a second
  /// by failing one of them. Groups take them in the order of the keys
  /// (migration 7), so the second group's owner gets its second key while
  /// this group waits, holding nothing, for its first.
  @Test func groupsTakeTheirLocksInTheOrderOfTheKeysSoNamesThatShareOneCannotDeadlock() async throws {
    guard StoreBackend.available.contains(.postgres) else { return }
    try await withPostgresDatabase { url in
      let store = try await PostgresDrawingStore(
        url: url, compaction: .manual, maximumConnections: 2, timeout: .seconds(60))
      let logger = Logger(label: "test")
      let other = try await PostgresConnection.connect(
        on: MultiThreadedEventLoopGroup.singleton.next(), configuration: url.connectionConfiguration(), id: 9,
        logger: logger
      ).get()
      // Closed on every path: a connection dropped open ends the process.
      do {
        let space = PostgresDrawingStore.lockSpace
        var premise = false
        for try await (same, alsoSame, order) in try await other.query(
          """
          SELECT hashtext('c124435') = hashtext('c291502'), hashtext('c142084') = hashtext('c205747'),
            hashtext('c142084') < hashtext('c124435')
          """, logger: logger
        ).decode((Bool, Bool, Bool).self) {
          premise = same && alsoSame && order
        }
        #expect(premise, "the names share keys as this test assumes")
        // Another server's group of c205747 and c291502, by name, has its first key.
        try await other.query("BEGIN", logger: logger)
        try await other.query("SELECT pg_advisory_xact_lock(\(space), hashtext('c205747'))", logger: logger)
        let group = Task {
          try await store.client.withConnection { connection in
            try await PostgresDrawingStore.appendGroup(
              [try Self.request("c124435"), try Self.request("c142084")], connection: connection, logger: logger,
              location: "test", updatedAt: Date())
          }
        }
        try await Task.sleep(for: .milliseconds(300))  // the group waits for a key the other holds
        // The other asks for its second key: free unless the group took it first.
        try await other.query("SET LOCAL lock_timeout = '5s'", logger: logger)
        try await other.query("SELECT pg_advisory_xact_lock(\(space), hashtext('c291502'))", logger: logger)
        try await other.query("COMMIT", logger: logger)
        let answers = try await group.value
        #expect(answers.map { $0.map(\.outcome) } == [["ok"], ["ok"]])
      } catch {
        try? await other.close()
        await store.close()
        throw error
      }
      try await other.close()
      await store.close()
    }
  }

  @Test func aFailedGroupIsTriedAgainRequestByRequestSoOnlyTheBadOneFails() async throws {
    let database = FakeDatabase()
    let groups = AppendGroups(limit: 1, refused: { _ in true }) { try await database.run($0) }
    let (first, waiting) = try await Self.queue(["b", "bad", "cc"], behindFirstOn: groups, database)
    #expect(try await first.value.map(\.revision) == [5])
    #expect(try await waiting[0].value.map(\.revision) == [1])
    await #expect(throws: (any Error).self) { try await waiting[1].value }
    #expect(try await waiting[2].value.map(\.revision) == [2])
    #expect(database.ran == [["first"], ["b", "bad", "cc"], ["b"], ["bad"], ["cc"]])
  }

  /// A database that answers fewer requests than it was given fails the
  /// rest instead of leaving them waiting for ever.
  @Test(.timeLimit(.minutes(1))) func anUnansweredRequestFailsInsteadOfWaiting() async throws {
    let groups = AppendGroups(refused: { _ in false }) { _ in [] }
    await #expect(throws: AppendGroups.Unanswered(requests: 1, answers: 0)) {
      try await groups.append(try Self.request("a"))
    }
  }

  /// A group whose fate is unknown (the connection lost: it may have
  /// committed) is not run again: every request in it fails, as one
  /// append alone would, and none can be appended twice.
  @Test func aGroupThatMayHaveCommittedIsNotRunAgain() async throws {
    let database = FakeDatabase()
    let groups = AppendGroups(limit: 1, refused: { _ in false }) { try await database.run($0) }
    let (first, waiting) = try await Self.queue(["b", "bad"], behindFirstOn: groups, database)
    #expect(try await first.value.map(\.revision) == [5])
    await #expect(throws: (any Error).self) { try await waiting[0].value }
    await #expect(throws: (any Error).self) { try await waiting[1].value }
    #expect(database.ran == [["first"], ["b", "bad"]])
  }

  /// The sessions of `AppendGroups` (for the store, leased connections):
  /// how many began, and which of them (counted from 1) fail to begin.
  final class Sessions: @unchecked Sendable {
    struct CannotBegin: Error {}
    private let lock = NSLock()
    private var begun = 0
    let failing: Set<Int>
    init(failing: Set<Int> = []) { self.failing = failing }
    var count: Int { lock.withLock { begun } }

    func session(
      _ database: FakeDatabase
    ) -> @Sendable (_ body: @Sendable (AppendGroups.Run) async -> Void) async throws -> Void {
      { body in
        let number = self.lock.withLock {
          self.begun += 1
          return self.begun
        }
        if self.failing.contains(number) { throw CannotBegin() }
        await body { try await database.run($0) }
      }
    }
  }

  /// Groups that follow one another while appends keep coming go through
  /// one session (one leased connection), not one each: "first", "b" and
  /// "c" are three groups (one batch a group at most) in one session.
  @Test func aBusyFlightRunsItsGroupsThroughOneSession() async throws {
    let database = FakeDatabase()
    let sessions = Sessions()
    let groups = AppendGroups(
      limit: 1, groupBatches: 1, lingerTurns: 0, refused: { _ in false }, session: sessions.session(database))
    let (first, waiting) = try await Self.queue(["b", "cc"], behindFirstOn: groups, database)
    #expect(try await first.value.map(\.revision) == [5])
    #expect(try await waiting[0].value.map(\.revision) == [1])
    #expect(try await waiting[1].value.map(\.revision) == [2])
    #expect(database.ran == [["first"], ["b"], ["cc"]])
    #expect(sessions.count == 1)
    // Idle, the flight ended: the next append begins a session of its own.
    #expect(try await groups.append(try Self.request("ddd")).map(\.revision) == [3])
    #expect(sessions.count == 2)
  }

  /// A session that returns without running its body leaves no append
  /// waiting for ever: the group it was for fails, and the next append
  /// begins a session of its own.
  @Test(.timeLimit(.minutes(1))) func aSessionThatSkipsItsBodyFailsItsGroupInsteadOfLeavingItWaiting() async throws {
    let database = FakeDatabase()
    let calls = Sessions()
    let sessions = calls.session(database)
    let groups = AppendGroups(limit: 1, refused: { _ in false }) { body in
      if calls.count == 0 {
        _ = try? await sessions { _ in }  // counted, and its body given nothing to run
        return
      }
      try await sessions(body)
    }
    await #expect(throws: AppendGroups.SessionSkipped.self) { try await groups.append(try Self.request("a")) }
    #expect(try await groups.append(try Self.request("bb")).map(\.revision) == [2])
    #expect(database.ran == [["bb"]])
  }

  /// A group whose fate is unknown ends its session (its connection may
  /// be gone); a session that cannot begin fails the group that waited
  /// for it, and only that one; the groups after them get new sessions.
  @Test func aLostSessionFailsOnlyItsGroupAndTheNextGroupsGetNewOnes() async throws {
    let database = FakeDatabase()
    let sessions = Sessions(failing: [2])
    let groups = AppendGroups(
      limit: 1, groupBatches: 1, refused: { _ in false }, session: sessions.session(database))
    let (first, waiting) = try await Self.queue(["bad", "cc", "ddd"], behindFirstOn: groups, database)
    #expect(try await first.value.map(\.revision) == [5])
    await #expect(throws: (any Error).self) { try await waiting[0].value }
    await #expect(throws: Sessions.CannotBegin.self) { try await waiting[1].value }
    #expect(try await waiting[2].value.map(\.revision) == [3])
    #expect(database.ran == [["first"], ["bad"], ["ddd"]])
    #expect(sessions.count == 3)
  }
}

/// Migration 8 wrote `touchtracker_append`'s steps into the group
/// function's loop, in fewer statements. The same batches through the one
/// batch function it replaced (`touchtracker_append_quiet`, still in the
/// schema) and through a group answer the same and leave the same rows:
/// keys known, conflicts, an empty batch, deletes below zero lines, a
/// clear, and a drawing made again over its tombstone.
@Suite struct LeanAppendGroupTests {
  struct Step {
    var changes: [Change]
    var key: String?
    var expected: Int?
  }

  static let steps: [Step] = [
    Step(changes: [AppendGroupsTests.line(1), AppendGroupsTests.line(2)], key: "a", expected: 0),
    Step(changes: [AppendGroupsTests.line(9)], key: "a", expected: nil),
    Step(changes: [AppendGroupsTests.line(3)], key: nil, expected: 5),
    Step(changes: [], key: nil, expected: 2),
    Step(
      changes: [
        .deleteLine(ShapeID(rawValue: 2)), .deleteLine(ShapeID(rawValue: 3)), .deleteLine(ShapeID(rawValue: 4)),
      ],
      key: "b", expected: 2),
    Step(changes: [.clear, AppendGroupsTests.line(5), AppendGroupsTests.line(6)], key: nil, expected: nil),
  ]

  static func answer(_ answer: AppendAnswer) -> String {
    "\(answer.outcome) r\(answer.revision) n\(answer.count) log \(answer.logCount)/\(answer.logBytes)"
  }

  /// What the drawing's rows hold, but its `updatedAt`.
  static func rows(of name: String, on client: PostgresClient, logger: Logger) async throws -> [String] {
    var rows: [String] = []
    for try await (revision, deleted, lines, circles, snapshot, bytes) in try await client.query(
      "SELECT revision, isDeleted, lineCount, circleCount, snapshotRevision, logBytes FROM drawing WHERE name = \(name)",
      logger: logger
    ).decode((Int, Bool, Int, Int, Int, Int).self) {
      rows.append(
        "head r\(revision) deleted \(deleted) lines \(lines) circles \(circles) snapshot \(snapshot) \(bytes) B")
    }
    for try await (revision, change, key, checksum) in try await client.query(
      "SELECT revision, change, batchKey, checksum FROM drawingChange WHERE name = \(name) ORDER BY revision",
      logger: logger
    ).decode((Int, String, String?, Int).self) {
      rows.append("change r\(revision) \(key ?? "-") \(checksum) \(change)")
    }
    for try await (key, revision) in try await client.query(
      "SELECT batchKey, revision FROM drawingBatch WHERE name = \(name) ORDER BY batchKey", logger: logger
    ).decode((String, Int).self) {
      rows.append("key \(key) r\(revision)")
    }
    for try await document in try await client.query(
      "SELECT document FROM drawingSnapshot WHERE name = \(name)", logger: logger
    ).decode(String.self) {
      rows.append("snapshot \(document)")
    }
    return rows
  }

  static func appendOne(
    _ batch: EncodedBatch, to name: String, expected: Int?, on client: PostgresClient, logger: Logger
  ) async throws -> AppendAnswer {
    let empty = SnapshotRecord(name: "", document: SQLiteDrawingStore.emptyDocument)
    let lineDeltas = batch.deltas.map { $0?.lines ?? 0 }
    let circleDeltas = batch.deltas.map { $0?.circles ?? 0 }
    let resets = batch.deltas.map { $0 == nil }
    var answers: [AppendAnswer] = []
    for try await (outcome, revision, count, logCount, logBytes) in try await client.query(
      """
      SELECT o_outcome, o_revision, o_count, o_log_count, o_log_bytes FROM touchtracker_append_quiet(\
      \(name), \(expected), \(batch.key), \(batch.texts)::text[], \(batch.checksums)::bigint[], \
      \(lineDeltas)::bigint[], \(circleDeltas)::bigint[], \(resets)::boolean[], \(batch.bytes), \(Date()), \
      \(empty.document), \(empty.checksum))
      """, logger: logger
    ).decode((String, Int, Int, Int, Int).self) {
      answers.append(
        AppendAnswer(outcome: outcome, revision: revision, count: count, logCount: logCount, logBytes: logBytes))
    }
    return try #require(answers.first)
  }

  @Test func theGroupAnswersAndStoresAsTheOneBatchFunctionDid() async throws {
    guard StoreBackend.available.contains(.postgres) else { return }
    try await withPostgresDatabase { url in
      let store = try await PostgresDrawingStore(
        url: url, compaction: .manual, maximumConnections: 2, timeout: .seconds(60))
      let logger = Logger(label: "test")
      do {
        var grouped: [String] = []
        var single: [String] = []
        func run(_ steps: [Step]) async throws {
          for step in steps {
            let batch = try EncodedBatch(step.changes, key: step.key)
            let request = AppendGroups.Request(name: "grouped", batches: [batch], expected: [step.expected])
            let answers = try await store.client.withConnection { connection in
              try await PostgresDrawingStore.appendGroup(
                [request], connection: connection, logger: logger, location: "test", updatedAt: Date())
            }
            grouped += answers.flatMap { $0.map(Self.answer) }
            single.append(
              Self.answer(
                try await Self.appendOne(batch, to: "single", expected: step.expected, on: store.client, logger: logger)
              ))
          }
        }
        try await run(Self.steps)
        #expect(grouped == single)
        #expect(
          grouped == [
            "ok r2 n2 log 2/\(try EncodedBatch(Self.steps[0].changes, key: nil).bytes)", "known r2 n0 log 0/0",
            "conflict r2 n0 log 0/0", "ok r2 n0 log 0/0",
          ] + grouped.suffix(2))
        #expect(try await Self.rows(of: "grouped", on: store.client, logger: logger).contains("key b r5"))
        #expect(
          try await Self.rows(of: "grouped", on: store.client, logger: logger)
            == Self.rows(of: "single", on: store.client, logger: logger))
        // Deleted, then made again over the tombstone by an append.
        for name in ["grouped", "single"] { try await store.delete(try DrawingName(name), ifRevision: nil) }
        try await run([Step(changes: [AppendGroupsTests.line(7)], key: "c", expected: 0)])
        #expect(grouped == single)
        #expect(grouped.last?.hasPrefix("ok r10 n1") == true, "\(grouped)")
        let rows = try await Self.rows(of: "grouped", on: store.client, logger: logger)
        #expect(rows == (try await Self.rows(of: "single", on: store.client, logger: logger)))
        #expect(rows.first?.hasPrefix("head r10 deleted false lines 1 circles 0 snapshot 9") == true, "\(rows)")
      } catch {
        await store.close()
        throw error
      }
      await store.close()
    }
  }
}

/// A batch another server appended reaches this one's listener with its
/// changes (`c`), before the `a` notice every server understands, so that
/// this server sends them on without reading the log; a batch too large
/// for a notice comes as the `a` notice alone.
@Suite struct CarriedChangesTests {
  @Test func aNoticeCarriesASmallBatchBeforeTheAppendNotice() async throws {
    guard StoreBackend.available.contains(.postgres) else { return }
    try await withPostgresDatabase { url in
      let store = try await PostgresDrawingStore(
        url: url, compaction: .manual, maximumConnections: 2, timeout: .seconds(60))
      let notices = try #require(store.notices())
      var heard = notices.makeAsyncIterator()
      #expect(await heard.next() == .some(nil), "listening starts with a nil")
      let name = try DrawingName("carried")
      let small = [AppendGroupsTests.line(1), AppendGroupsTests.line(2)]
      try await store.append(small, to: name, ifRevision: 0, key: "k-1")
      let large = (0..<200).map { AppendGroupsTests.line(Double($0) + 10) }
      try await store.append(large, to: name, ifRevision: 2, key: nil)
      try await store.append([AppendGroupsTests.line(3)], to: name, ifRevision: 202, key: nil)

      let stored = try #require(try await store.changes(of: name, since: 0)).changes
      var carried = DrawingNotice(kind: .changes, name: "carried", revision: 2)
      carried.key = "k-1"
      carried.changes = stored[0..<2].map(\.json)
      #expect(await heard.next() == carried)
      #expect(await heard.next() == DrawingNotice(kind: .append, name: "carried", revision: 2))
      // 200 changes are over 8,000 bytes: the append notice alone.
      #expect(await heard.next() == DrawingNotice(kind: .append, name: "carried", revision: 202))
      var last = DrawingNotice(kind: .changes, name: "carried", revision: 203)
      last.changes = [stored[202].json]
      #expect(await heard.next() == last)
      #expect(await heard.next() == DrawingNotice(kind: .append, name: "carried", revision: 203))
      await store.close()
    }
  }

  @Test func aChangesNoticeIsReadBackAsSentAndMalformedOnesAreRefused() {
    let notice = DrawingNotice(payload: "c 7 2 k-1 a_b\n{\"op\":\"clear\"}\n{\"op\":\"clear\"}")
    #expect(notice?.kind == .changes)
    #expect(notice?.name == "a_b")
    #expect(notice?.revision == 7)
    #expect(notice?.key == "k-1")
    #expect(notice?.changes == [#"{"op":"clear"}"#, #"{"op":"clear"}"#])
    #expect(DrawingNotice(payload: "c 7 1 . a_b\n{}")?.key == nil)
    #expect(DrawingNotice(payload: "c 7 2 . a_b\n{}") == nil, "fewer changes than it says")
    #expect(DrawingNotice(payload: "c 7 1 . a_b") == nil, "no changes")
    #expect(DrawingNotice(payload: "c 1 2 . a_b\n{}\n{}") == nil, "more changes than revisions")
  }
}
