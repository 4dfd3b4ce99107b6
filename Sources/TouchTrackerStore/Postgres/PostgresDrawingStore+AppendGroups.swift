import Foundation
import Logging
import PostgresNIO

/// What `touchtracker_append` answers for one batch.
struct AppendAnswer: Sendable {
  var outcome: String
  var revision: Int
  var count: Int
  var logCount: Int
  var logBytes: Int
}

/// Group commit across drawings: appends that arrive while others are on
/// their way to the database wait, and the next of at most `limit` groups
/// in flight takes all that wait, of whichever drawings, in one statement
/// (`touchtracker_append_group`) and so one commit, one WAL flush and one
/// turn of the lock PostgreSQL takes to queue notices at commit.
///
/// Why: eight writers on eight drawings made eight commits, and every
/// commit that notifies holds that lock through its WAL flush, so they
/// went one at a time (pgbench on this machine: one INSERT a transaction
/// 13–15k tps, `touchtracker_append` 3.5–4.3k, four of them in one
/// statement 9k appends/s). An append alone still goes at once, in a group
/// of one: the wait is only ever for a group already running.
///
/// A group that the database refused (an error it answered, such as a
/// deadlock it broke: the transaction is rolled back) is tried again one
/// request at a time, so that one request's trouble is not another's. A
/// group whose fate is unknown (the connection was lost: it may have
/// committed) fails every request in it, as one append alone would: a
/// batch without a key run again could be appended twice.
final class AppendGroups: @unchecked Sendable {
  struct Request: Sendable {
    var name: String
    var batches: [EncodedBatch]
    var expected: [Int?]
  }

  private struct Waiting: Sendable {
    var request: Request
    var continuation: CheckedContinuation<[AppendAnswer], any Error>
  }

  /// Groups in flight at most: each is one connection and one backend.
  let limit: Int
  /// Batches in one group at most.
  let groupBatches: Int
  /// How many turns of the executor a flight with nothing waiting lets
  /// pass before it ends (`Task.yield()`, no timer): the writers its group
  /// just answered are resumed by then and usually append again, and
  /// their appends go on through its session. Ended at once, the flight
  /// gave back its connection and the next append leased one again: in
  /// `store-writers` (8 writers) 6,500–7,000 leases for ~17,000 groups,
  /// against ~80 with two turns, and 6–8% more saves a second. How long a
  /// flight lingers is a matter of scheduling: it is measured by the
  /// PostgreSQL rows of `Benchmarks/server/writers.py`, not pinned by a test.
  let lingerTurns: Int
  private let lock = NSLock()
  private var waiting: [Waiting] = []
  private var inFlight = 0
  private var ran = (statements: 0, batches: 0)
  private let session: @Sendable (_ body: @Sendable (Run) async -> Void) async throws -> Void
  private let refused: @Sendable (any Error) -> Bool

  /// Appends the requests in one statement: each one's answers, in order.
  typealias Run = @Sendable ([Request]) async throws -> [[AppendAnswer]]

  /// - Parameters:
  ///   - refused: Whether an error of `run` means the database refused
  ///     the statement and so committed none of it.
  ///   - run: Appends the requests in one statement: each one's answers,
  ///     in order.
  convenience init(
    limit: Int = 2, groupBatches: Int = 512, lingerTurns: Int = 2, refused: @escaping @Sendable (any Error) -> Bool,
    run: @escaping Run
  ) {
    self.init(limit: limit, groupBatches: groupBatches, lingerTurns: lingerTurns, refused: refused) { body in
      await body(run)
    }
  }

  /// - Parameters:
  ///   - session: Calls its body with a `Run` for as long as the body
  ///     runs: one flight's groups, one after the other, go through one
  ///     session (for the store, one leased connection), so a busy flight
  ///     leases its connection once and not once a group. It throws if
  ///     it could not start one (the body did not run).
  init(
    limit: Int = 2, groupBatches: Int = 512, lingerTurns: Int = 2, refused: @escaping @Sendable (any Error) -> Bool,
    session: @escaping @Sendable (_ body: @Sendable (Run) async -> Void) async throws -> Void
  ) {
    self.limit = limit
    self.groupBatches = groupBatches
    self.lingerTurns = lingerTurns
    self.refused = refused
    self.session = session
  }

  /// The groups run so far and the batches in them (for tests: fewer
  /// groups than batches means appends shared statements).
  var counts: (statements: Int, batches: Int) { lock.withLock { ran } }

  /// The requests waiting for a group (for tests).
  var waitingCount: Int { lock.withLock { waiting.count } }

  /// Appends `request` in the next group: its batches' answers, in order.
  func append(_ request: Request) async throws -> [AppendAnswer] {
    try await withCheckedThrowingContinuation { continuation in
      let starts = lock.withLock {
        waiting.append(Waiting(request: request, continuation: continuation))
        guard inFlight < limit else { return false }
        inFlight += 1
        return true
      }
      if starts { Task { await drain() } }
    }
  }

  /// Runs groups of what waits until nothing does, one session at a
  /// time: a session that could not start fails the group it was for.
  private func drain() async {
    guard var pending = next() else { return }
    while true {
      let first = pending
      let taken = Taken()
      var failure: any Error = SessionSkipped()
      do {
        try await session { run in
          guard let first = taken.take(first) else { return }
          var group = first
          while true {
            // A group whose fate is unknown ends the session: its
            // connection may be gone, and the next group gets another.
            guard await self.run(group, through: run) else { return }
            var turns = 0
            while turns < self.lingerTurns, self.waitingCount == 0 {
              await Task.yield()
              turns += 1
            }
            guard let following = self.next() else {
              taken.left()
              return
            }
            group = following
          }
        }
      } catch {
        failure = error
      }
      // No session ran it: the group that waited for one has its answer.
      if let group = taken.take(first) {
        for waiting in group { waiting.continuation.resume(throwing: failure) }
      }
      // A session that ended without leaving the flight (its body did not
      // run, or a group's fate was unknown) leaves what waits to the next.
      guard !taken.hasLeft, let following = next() else { return }
      pending = following
    }
  }

  /// Whether a session's body took its first group and whether it left
  /// the flight, so that neither is done twice.
  private final class Taken: @unchecked Sendable {
    private let lock = NSLock()
    private var taken = false
    private var leftFlight = false
    func take(_ group: [Waiting]) -> [Waiting]? {
      lock.withLock {
        guard !taken else { return nil }
        taken = true
        return group
      }
    }
    func left() { lock.withLock { leftFlight = true } }
    var hasLeft: Bool { lock.withLock { leftFlight } }
  }

  /// Runs one group and answers its requests: false if the group's fate
  /// is unknown (not answered, not refused), so that its session ends.
  private func run(_ group: [Waiting], through run: Run) async -> Bool {
    do {
      let answers = try await run(group.map(\.request))
      guard answers.count == group.count else { throw Unanswered(requests: group.count, answers: answers.count) }
      for (waiting, answer) in zip(group, answers) { waiting.continuation.resume(returning: answer) }
      return true
    } catch  where group.count > 1 && refused(error) {
      for waiting in group {
        do {
          guard let answer = try await run([waiting.request]).first else {
            throw Unanswered(requests: 1, answers: 0)
          }
          waiting.continuation.resume(returning: answer)
        } catch {
          waiting.continuation.resume(throwing: error)
        }
      }
      return true
    } catch {
      for waiting in group { waiting.continuation.resume(throwing: error) }
      return refused(error)
    }
  }

  /// A session returned without running its body.
  struct SessionSkipped: Error, CustomStringConvertible {
    var description: String { "the database session ended before the appends ran" }
  }

  /// `run` answered a group of `requests` with `answers` answers: no
  /// request may wait for ever on one it did not get.
  struct Unanswered: Error, Equatable, CustomStringConvertible {
    var requests: Int
    var answers: Int
    var description: String { "a group of \(requests) appends got \(answers) answers" }
  }

  /// The requests of the next group (whole requests, up to `groupBatches`
  /// batches unless one request alone has more), or nil, leaving the
  /// flight, when none wait.
  private func next() -> [Waiting]? {
    lock.withLock {
      guard !waiting.isEmpty else {
        inFlight -= 1
        return nil
      }
      var count = 0
      var end = 0
      while end < waiting.count, end == 0 || count + waiting[end].request.batches.count <= groupBatches {
        count += waiting[end].request.batches.count
        end += 1
      }
      defer { waiting.removeFirst(end) }
      ran.statements += 1
      ran.batches += count
      return Array(waiting[..<end])
    }
  }
}

extension PostgresDrawingStore {
  /// One call of `touchtracker_append_group` for `requests`, outside an
  /// explicit transaction: the statement is its own commit. A prepared
  /// statement (`AppendGroupStatement`): PostgreSQL parses, analyzes and
  /// plans it once a connection, not once a group.
  static func appendGroup(
    _ requests: [AppendGroups.Request], connection: PostgresConnection, logger: Logger, location: String,
    updatedAt: Date
  ) async throws -> [[AppendAnswer]] {
    var statement = AppendGroupStatement(updatedAt: updatedAt)
    for request in requests {
      for (batch, expecting) in zip(request.batches, request.expected) {
        statement.add(batch, of: request.name, expecting: expecting)
      }
    }
    let count = statement.names.count
    var answers = [AppendAnswer?](repeating: nil, count: count)
    for try await (index, answer) in try await connection.execute(statement, logger: logger) {
      let slot = Int(index) - 1
      guard answers.indices.contains(slot) else { continue }
      answers[slot] = answer
    }
    var split: [[AppendAnswer]] = []
    var offset = 0
    for request in requests {
      var mine: [AppendAnswer] = []
      for slot in offset..<offset + request.batches.count {
        guard let answer = answers[slot] else {
          throw DrawingStoreError.unavailable(
            location: location, reason: "touchtracker_append_group returned no row for batch \(slot + 1)")
        }
        mine.append(answer)
      }
      split.append(mine)
      offset += request.batches.count
    }
    return split
  }
}

/// `touchtracker_append_group`'s call: its batches as the function's
/// parallel arrays (see the function), one row back per batch.
struct AppendGroupStatement: PostgresPreparedStatement {
  static let name = "touchtracker_append_group_1"
  static let sql = """
    SELECT o_index, o_outcome, o_revision, o_count, o_log_count, o_log_bytes FROM touchtracker_append_group(\
    $1::text[], $2::bigint[], $3::text[], $4::boolean[], $5::integer[], $6::text[], $7::bigint[], $8::bigint[], \
    $9::bigint[], $10::boolean[], $11::bigint[], $12, $13, $14)
    """
  typealias Row = (Int32, AppendAnswer)

  static let empty = SnapshotRecord(name: "", document: SQLiteDrawingStore.emptyDocument)

  var names: [String] = []
  var expected: [Int] = []
  var keys: [String] = []
  var keyed: [Bool] = []
  var counts: [Int32] = []
  var texts: [String] = []
  var checksums: [Int64] = []
  var lineDeltas: [Int] = []
  var circleDeltas: [Int] = []
  var resets: [Bool] = []
  var bytes: [Int] = []
  var updatedAt: Date

  init(updatedAt: Date) { self.updatedAt = updatedAt }

  mutating func add(_ batch: EncodedBatch, of name: String, expecting: Int?) {
    names.append(name)
    expected.append(expecting ?? -1)
    keys.append(batch.key ?? "")
    keyed.append(batch.key != nil)
    counts.append(Int32(batch.texts.count))
    texts += batch.texts
    checksums += batch.checksums
    lineDeltas += batch.deltas.map { $0?.lines ?? 0 }
    circleDeltas += batch.deltas.map { $0?.circles ?? 0 }
    resets += batch.deltas.map { $0 == nil }
    bytes.append(batch.bytes)
  }

  func makeBindings() throws -> PostgresBindings {
    var bindings = PostgresBindings(capacity: 14)
    bindings.append(names)
    bindings.append(expected)
    bindings.append(keys)
    bindings.append(keyed)
    bindings.append(counts)
    bindings.append(texts)
    bindings.append(checksums)
    bindings.append(lineDeltas)
    bindings.append(circleDeltas)
    bindings.append(resets)
    bindings.append(bytes)
    bindings.append(updatedAt)
    bindings.append(Self.empty.document)
    bindings.append(Self.empty.checksum)
    return bindings
  }

  func decodeRow(_ row: PostgresRow) throws -> Row {
    let (index, outcome, revision, count, logCount, logBytes) = try row.decode(
      (Int32, String, Int, Int, Int, Int).self)
    return (
      index,
      AppendAnswer(outcome: outcome, revision: revision, count: count, logCount: logCount, logBytes: logBytes)
    )
  }
}
