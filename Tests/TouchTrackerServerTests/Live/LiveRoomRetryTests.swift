import Foundation
import NIOConcurrencyHelpers
import Testing
import TouchTrackerCore
import TouchTrackerStore

@testable import TouchTrackerServer

/// Another server's change reaches this server's clients even when the
/// database fails the first read of it: the room looks again, later,
/// instead of leaving its clients behind until the next change.
@Suite struct LiveRoomRetryTests {
  @Test func aFailedReadOfAnotherServersChangeIsTriedAgain() async throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("touchtracker-retry-\(UUID()).sqlite").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    let (store, flaky, room, outbox) = try await Self.joinedRoom(path)
    let name = room.name

    // Another server commits; the first read of its change fails.
    let line = Line(id: ShapeID(rawValue: 7), begin: Point(x: 1, y: 2), end: Point(x: 3, y: 4))
    try await store.append([.add(lines: [line], circles: [], at: nil)], to: name, ifRevision: 0, key: "k1")
    flaky.failures.withLockedValue { $0 = 1 }
    await room.heard(DrawingNotice(kind: .append, name: "d", revision: 1))

    let received = await Self.messages(outbox)
    #expect(flaky.failures.withLockedValue { $0 } == 0, "the read failed once")
    #expect(received.count == 1)
    #expect(received.first?.hasPrefix(#"{"type":"changes","revision":1,"#) == true)
  }

  /// A notice that carries another server's batch goes to the members
  /// right before it as it is, without a read of the log; members further
  /// behind get nothing from it and wait for the append notice after it,
  /// which reads the log for them.
  @Test func aCarriedBatchGoesOutWithoutAReadAndMembersBehindWaitForTheAppendNotice() async throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("touchtracker-retry-\(UUID()).sqlite").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    let (store, flaky, room, outbox) = try await Self.joinedRoom(path)
    let name = room.name

    // Another server appends revision 1 and its notice carries it: any read now would fail.
    try await store.append([Self.line(1)], to: name, ifRevision: 0, key: "k1")
    flaky.failures.withLockedValue { $0 = 100 }
    let logged = try #require(try await store.changes(of: name, since: 0)).changes
    room.hear(Self.notice(carrying: logged, at: 1, key: "k1"))
    #expect(await Self.messages(outbox) == LiveRoom.backlog(logged).map(\.text))
    #expect(flaky.failures.withLockedValue { $0 } == 100, "the room read the log")

    // Revisions 2 and 3; only 3 is carried, and the member is at 1: it waits.
    try await store.append([Self.line(2)], to: name, ifRevision: 1, key: nil)
    try await store.append([Self.line(3)], to: name, ifRevision: 2, key: nil)
    let later = try #require(try await store.changes(of: name, since: 1)).changes
    var third = DrawingNotice(kind: .changes, name: "d", revision: 3)
    third.changes = [later[1].json]
    room.hear(third)
    flaky.failures.withLockedValue { $0 = 0 }
    room.hear(DrawingNotice(kind: .append, name: "d", revision: 3))
    #expect(await Self.messages(outbox) == LiveRoom.backlog(later).map(\.text))
  }

  /// A carried batch does not wait for this server's own commit in flight
  /// (the gate): the member gets it while that commit is held in the
  /// store, and the commit, once let go, finds the member up to date and
  /// sends its own batch after it without reading the log.
  @Test func aCarriedBatchDoesNotWaitForThisServersCommitInFlight() async throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("touchtracker-retry-\(UUID()).sqlite").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    let (store, flaky, room, outbox) = try await Self.joinedRoom(path)
    let name = room.name

    // This server's append waits in the store, holding the gate.
    flaky.holdAppends()
    let own = Task { try await room.append(ChangeBatch(changes: [Self.line(2)], key: "k2"), from: nil) }
    while flaky.heldAppends == 0 { try await Task.sleep(for: .milliseconds(1)) }

    // Meanwhile another server commits revision 1, and its notice carries it.
    try await store.append([Self.line(1)], to: name, ifRevision: 0, key: "k1")
    let logged = try #require(try await store.changes(of: name, since: 0)).changes
    room.hear(Self.notice(carrying: logged, at: 1, key: "k1"))
    #expect(await Self.messages(outbox) == LiveRoom.backlog(logged).map(\.text))

    flaky.failures.withLockedValue { $0 = 100 }  // any read of the log now would fail
    flaky.releaseAppends()
    #expect(try await own.value.revision == 2)
    let after = try #require(try await store.changes(of: name, since: 1)).changes
    #expect(await Self.messages(outbox) == LiveRoom.backlog(after).map(\.text))
    #expect(flaky.failures.withLockedValue { $0 } == 100, "the commit read the log")
  }

  /// The notice of this room's own commit can come back before the commit
  /// returns; it is left to the commit, so that its sender gets the `ack`
  /// alone, once, and in revision order (sent from the notice, it got its
  /// batch as a change, then the `ack` too: two messages for one revision).
  @Test func theNoticeOfThisRoomsOwnCommitIsLeftToTheCommit() async throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("touchtracker-retry-\(UUID()).sqlite").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    let (store, flaky, room, other) = try await Self.joinedRoom(path)
    let sender = LiveOutbox(limits: LiveLimits()) { _ in }
    room.add(sender)
    try await room.join(sender, since: 0, by: "0000000c")
    #expect(await Self.messages(sender) == [#"{"type":"welcome","revision":0}"#])

    // The commit is in the log, and held before it returns to the room.
    flaky.holdAppends(afterCommit: true)
    let own = Task { try await room.append(ChangeBatch(changes: [Self.line(5)], key: "k5"), from: sender) }
    while flaky.heldAppends == 0 { try await Task.sleep(for: .milliseconds(1)) }
    let logged = try #require(try await store.changes(of: room.name, since: 0)).changes
    room.hear(Self.notice(carrying: logged, at: 1, key: "k5"))
    flaky.releaseAppends()
    #expect(try await own.value.revision == 1)
    #expect(await Self.messages(sender) == [#"{"type":"ack","key":"k5","revision":1}"#])
    let received = await Self.messages(other)
    #expect(received.count == 1)
    #expect(received.first?.hasPrefix(#"{"type":"changes","revision":1,"#) == true)
  }

  /// The `changes` notice of another server that carries `logged`, its batch at `revision`.
  static func notice(carrying logged: [StoredChange], at revision: Int, key: String?) -> DrawingNotice {
    var notice = DrawingNotice(kind: .changes, name: "d", revision: revision)
    notice.key = key
    notice.changes = logged.map(\.json)
    return notice
  }

  /// A change that adds line `id`.
  static func line(_ id: UInt64) -> Change {
    .add(
      lines: [Line(id: ShapeID(rawValue: id), begin: Point(x: 1, y: 2), end: Point(x: 3, y: 4))], circles: [], at: nil)
  }

  /// A room of drawing "d" on a SQLite file at `path` behind `FlakyChanges`,
  /// with one member joined at revision 0 (its welcome taken).
  static func joinedRoom(
    _ path: String
  ) async throws -> (store: SQLiteDrawingStore, flaky: FlakyChanges, room: LiveRoom, outbox: LiveOutbox) {
    let store = try SQLiteDrawingStore(path: path)
    let flaky = FlakyChanges(store)
    let room = LiveRoom(name: try DrawingName("d"), store: flaky, limits: LiveLimits())
    let outbox = LiveOutbox(limits: LiveLimits()) { _ in }
    room.add(outbox)
    try await room.join(outbox, since: 0, by: "0000000b")
    #expect(await messages(outbox) == [#"{"type":"welcome","revision":0}"#])
    return (store, flaky, room, outbox)
  }

  /// What `outbox` holds, waiting at most 10 s for something.
  static func messages(_ outbox: LiveOutbox) async -> [String] {
    await withTaskGroup(of: [String]?.self) { group in
      group.addTask {
        if case .messages(let messages) = await outbox.next() { return messages }
        return []
      }
      group.addTask {
        try? await Task.sleep(for: .seconds(10))
        return nil
      }
      let first = await group.next()!
      group.cancelAll()
      if first == nil { outbox.finish(nil) }  // the timer won: end the reader, which waits for nothing else
      return first ?? []
    }
  }
}

/// A store whose `changes(of:since:)` throws while `failures` is above 0
/// (one failure per call), as a database that drops a connection does.
final class FlakyChanges: DrawingStorage {
  let base: SQLiteDrawingStore
  let failures = NIOLockedValueBox(0)

  init(_ base: SQLiteDrawingStore) { self.base = base }

  struct Failure: Error {}

  var location: String { base.location }
  var compaction: CompactionPolicy { base.compaction }
  func list() async throws -> [DrawingSummary] { try await base.list() }
  func list(_ query: DrawingListQuery) async throws -> DrawingListPage { try await base.list(query) }
  func load(_ name: DrawingName) async throws -> StoredDrawing? { try await base.load(name) }
  func adminToken(candidate: String, replacing: Bool) async throws -> String {
    try await base.adminToken(candidate: candidate, replacing: replacing)
  }
  func loadDocument(_ name: DrawingName) async throws -> StoredDocument? { try await base.loadDocument(name) }
  func changes(of name: DrawingName, since: Int) async throws -> StoredChanges? {
    let fail = failures.withLockedValue { failures in
      defer { failures = max(0, failures - 1) }
      return failures > 0
    }
    if fail { throw Failure() }
    return try await base.changes(of: name, since: since)
  }
  func save(_ drawing: Drawing, as name: DrawingName, ifRevision expected: Int?) async throws -> Int {
    try await base.save(drawing, as: name, ifRevision: expected)
  }
  func delete(_ name: DrawingName, ifRevision expected: Int?) async throws -> Bool {
    try await base.delete(name, ifRevision: expected)
  }
  func append(_ changes: [Change], to name: DrawingName, ifRevision expected: Int?, key: String?) async throws -> Int {
    try await base.append(changes, to: name, ifRevision: expected, key: key)
  }
  func append(batches: [ChangeBatch], to name: DrawingName) async throws -> [Result<AppendedBatch, any Error>] {
    if !holdsAfterCommit.withLockedValue({ $0 }) { await waitWhileHeld() }
    let results = try await base.append(batches: batches, to: name)
    if holdsAfterCommit.withLockedValue({ $0 }) { await waitWhileHeld() }
    return results
  }

  private func waitWhileHeld() async {
    await withCheckedContinuation { continuation in
      let waits = held.withLockedValue { held in
        guard held != nil else { return false }
        held!.append(continuation)
        return true
      }
      if !waits { continuation.resume() }
    }
  }

  private let holdsAfterCommit = NIOLockedValueBox(false)

  /// Appends waiting in `append(batches:to:)` while held; nil: not held.
  private let held = NIOLockedValueBox<[CheckedContinuation<Void, Never>]?>(nil)

  /// Makes `append(batches:to:)` wait until `releaseAppends()`, before
  /// it appends or, `afterCommit`, after.
  func holdAppends(afterCommit: Bool = false) {
    holdsAfterCommit.withLockedValue { $0 = afterCommit }
    held.withLockedValue { $0 = $0 ?? [] }
  }

  /// Lets every held append go on, and the next ones through.
  func releaseAppends() {
    let waiting = held.withLockedValue { held in
      defer { held = nil }
      return held ?? []
    }
    for continuation in waiting { continuation.resume() }
  }

  /// Appends waiting in `append(batches:to:)`.
  var heldAppends: Int { held.withLockedValue { $0?.count ?? 0 } }
  func summary(of name: DrawingName) async throws -> DrawingSummary? { try await base.summary(of: name) }
  func rename(_ name: DrawingName, to newName: DrawingName, ifRevision expected: Int?) async throws -> Renamed? {
    try await base.rename(name, to: newName, ifRevision: expected)
  }
  func movedTo(_ name: DrawingName) async throws -> DrawingMove? { try await base.movedTo(name) }
  func compact(_ name: DrawingName) async throws -> Int? { try await base.compact(name) }
  func waitForCompactions() async { await base.waitForCompactions() }
  func links(of name: DrawingName) async throws -> DrawingLinks? { try await base.links(of: name) }
  func makeLinks(for name: DrawingName) async throws -> DrawingLinks { try await base.makeLinks(for: name) }
  func rotateLinks(of name: DrawingName) async throws -> DrawingLinks { try await base.rotateLinks(of: name) }
  func removeLinks(of name: DrawingName) async throws -> Bool { try await base.removeLinks(of: name) }
  func restore(_ drawing: Drawing, as name: DrawingName, revision: Int, updatedAt: Date, links: DrawingLinks?)
    async throws
  { try await base.restore(drawing, as: name, revision: revision, updatedAt: updatedAt, links: links) }
}
