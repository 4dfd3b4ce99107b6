import Foundation
import TouchTrackerCore

/// Where drawings are kept: what the server and the CLI use, whatever the
/// backend. `SQLiteDrawingStore` keeps them in a SQLite file (the default);
/// `PostgresDrawingStore` in a PostgreSQL database, which several servers
/// can share.
///
/// Every backend has the same semantics, pinned by one test suite that runs
/// against each (`StoreSuiteTests`):
///
/// - Each drawing has a revision that counts its changes; `save`, `append`
///   and `delete` take the revision the caller expects (`If-Match`) and
///   throw `DrawingStoreError.conflict` if it is not the current one. A
///   drawing that does not exist is at revision 0; a deleted one keeps its
///   revision (a tombstone), so one created again continues from there.
/// - `append` adds changes to a log after a snapshot, at consecutive
///   revisions; a batch with an idempotency key already appended to the
///   drawing appends nothing and answers the revision it ended at.
/// - `changes(of:since:)` answers the log after a revision, or
///   `DrawingStoreError.changesGone` once compaction folded it into the
///   snapshot.
/// - When a write returns, it is durable (committed and synced). A write
///   that throws `DrawingStoreError.unavailable` may still commit (its
///   connection lost after `COMMIT`, or past its deadline): the client
///   sends it again with the same idempotency key.
/// - A stored row that no longer matches its checksum is
///   `DrawingStoreError.damaged`, never served.
/// - A drawing's share links (`makeLinks`) stay until `rotateLinks` or
///   `removeLinks`, across a reopen.
public protocol DrawingStorage: AnyObject, Sendable {
  /// Where the drawings are, for messages: a file's path, or a database URL
  /// without its password.
  var location: String { get }

  /// When logs are folded into snapshots.
  var compaction: CompactionPolicy { get }

  /// Why the database is known not to answer right now (a call passed its
  /// deadline and nothing has answered since: `DatabaseDeadline`), or nil;
  /// read without waiting, for `/healthz`. Always nil for a backend in this process
  /// (SQLite).
  var stall: String? { get }

  /// Every drawing that exists, by name, without reading any document.
  func list() async throws -> [DrawingSummary]

  /// A page of the drawings that exist, newest first (`DrawingListQuery`),
  /// without reading any document; one index range however many there are.
  func list(_ query: DrawingListQuery) async throws -> DrawingListPage

  /// The drawing named `name`, decoded, or nil if there is none.
  func load(_ name: DrawingName) async throws -> StoredDrawing?

  /// The document text of the drawing named `name`, or nil if there is none.
  func loadDocument(_ name: DrawingName) async throws -> StoredDocument?

  /// The changes of `name` after revision `since`, in order, or nil if there
  /// is no such drawing.
  func changes(of name: DrawingName, since: Int) async throws -> StoredChanges?

  /// Replaces the document of `name` and empties its log; the new revision.
  @discardableResult
  func save(_ drawing: Drawing, as name: DrawingName, ifRevision expected: Int?) async throws -> Int

  /// Deletes `name` and its log; false if there was none.
  @discardableResult
  func delete(_ name: DrawingName, ifRevision expected: Int?) async throws -> Bool

  /// The summary of `name` (as `list` has it), or nil if there is no such
  /// drawing; reads no document.
  func summary(of name: DrawingName) async throws -> DrawingSummary?

  /// Renames `name` to `newName` with everything it has: its document, its
  /// log and idempotency keys, its share links. `name` is left as a
  /// tombstone one revision on, as a delete leaves it, so whoever still
  /// writes to it gets a conflict. If `newName` was deleted before, the
  /// drawing's revisions (log included) move up past the tombstone's, as a
  /// drawing created again there would continue from it; otherwise they stay.
  /// Nil if there is no drawing `name`.
  ///
  /// - Throws: `DrawingStoreError.nameTaken` if a drawing is named `newName`
  ///   (`name` itself included), `.conflict` if `expected` is not `name`'s
  ///   revision.
  func rename(_ name: DrawingName, to newName: DrawingName, ifRevision expected: Int?) async throws -> Renamed?

  /// Where `name` went, if it is the tombstone a rename left (and nothing
  /// has happened under the name since: no drawing made again there, no
  /// delete): the new name, and how far the revisions moved. What a page
  /// that missed the rename (offline, or its socket down) follows.
  func movedTo(_ name: DrawingName) async throws -> DrawingMove?

  /// The admin token of these drawings (access control): the one stored,
  /// or `candidate` stored now if there is none, or if `replacing` (a new
  /// token: the old one opens nothing from then on). Stored with the
  /// drawings, so a restart keeps it and every server on one PostgreSQL
  /// database takes the same one.
  func adminToken(candidate: String, replacing: Bool) async throws -> String

  /// Appends `changes` to the log of `name`; the revision after the last.
  @discardableResult
  func append(_ changes: [Change], to name: DrawingName, ifRevision expected: Int?, key: String?) async throws -> Int

  /// Appends several batches in one transaction, each as `append` would.
  func append(batches: [ChangeBatch], to name: DrawingName) async throws -> [Result<AppendedBatch, any Error>]

  /// Folds the log of `name` into a new snapshot; its revision, or nil if
  /// there was nothing to fold.
  @discardableResult
  func compact(_ name: DrawingName) async throws -> Int?

  /// Returns once no background compaction is under way.
  func waitForCompactions() async

  /// Notices of the writes to this database, by this process and every
  /// other, in commit order, while the stream is iterated; nil means "some
  /// may have been missed: look". Nil (no stream) for a backend whose
  /// writers are all in this process (SQLite).
  func notices() -> AsyncStream<DrawingNotice?>?

  /// Sends `payload` (at most `maximumBroadcastLength` bytes of UTF-8) to
  /// the `broadcasts` of every process on this database, this one's
  /// included: what servers tell each other and never store (lines in
  /// progress). Best effort: nothing is sent once the store is closing.
  /// Nothing for a backend whose writers are all in this process (SQLite).
  func broadcast(_ payload: String) async throws

  /// What every process sends with `broadcast`, while the stream is
  /// iterated, in the order sent; nil (no stream) for a backend whose
  /// writers are all in this process (SQLite). The stream ends when the
  /// store closes.
  func broadcasts() -> AsyncStream<String>?

  /// Closes the store's connections; it is not used after.
  func close() async

  // Share links: read by the drawing's name, never looked up by
  // key; the server compares keys in constant time (`DrawingLinks`).

  /// The share links of `name`, or nil if none were made.
  func links(of name: DrawingName) async throws -> DrawingLinks?

  /// The links of `name`, made now (`DrawingLinks.random`) if it had none.
  func makeLinks(for name: DrawingName) async throws -> DrawingLinks

  /// Replaces both links of `name` with new ones; the old keys open nothing.
  func rotateLinks(of name: DrawingName) async throws -> DrawingLinks

  /// Forgets the links of `name` (after a delete); true if it had some.
  @discardableResult
  func removeLinks(of name: DrawingName) async throws -> Bool

  /// Writes a drawing from a backup: `drawing` as `name` at `revision`,
  /// changed last at `updatedAt`, with its share links if it had some
  /// (`DrawingBackup`). The name must hold nothing yet.
  ///
  /// - Throws: `DrawingStoreError.nameTaken` if it does.
  func restore(
    _ drawing: Drawing, as name: DrawingName, revision: Int, updatedAt: Date, links: DrawingLinks?
  ) async throws
}

extension DrawingStorage {
  public var stall: String? { nil }

  public func notices() -> AsyncStream<DrawingNotice?>? { nil }

  public func broadcast(_ payload: String) async throws {}

  public func broadcasts() -> AsyncStream<String>? { nil }

  public func close() async {}

  @discardableResult
  public func save(_ drawing: Drawing, as name: DrawingName) async throws -> Int {
    try await save(drawing, as: name, ifRevision: nil)
  }

  @discardableResult
  public func delete(_ name: DrawingName) async throws -> Bool {
    try await delete(name, ifRevision: nil)
  }

  @discardableResult
  public func append(_ changes: [Change], to name: DrawingName, ifRevision expected: Int? = nil) async throws -> Int {
    try await append(changes, to: name, ifRevision: expected, key: nil)
  }

  @discardableResult
  public func append(_ changes: [Change], to name: DrawingName, key: String?) async throws -> Int {
    try await append(changes, to: name, ifRevision: nil, key: key)
  }
}

extension SQLiteDrawingStore: DrawingStorage {
  public var location: String { path }
}

/// Where a renamed drawing is now (`DrawingStorage.movedTo`): its name, and
/// how far its revisions moved (revision `r` under the old name is
/// `r + shift` under the new one).
public struct DrawingMove: Hashable, Sendable {
  public var name: DrawingName
  public var shift: Int

  public init(name: DrawingName, shift: Int) {
    self.name = name
    self.shift = shift
  }
}

/// What `rename` did: the drawing was at `previousRevision` under its old
/// name and is at `revision` under the new one; every revision `r` of it
/// (its log's too) is `r + revision - previousRevision` now. The old name's
/// tombstone is at `tombstoneRevision`.
public struct Renamed: Hashable, Sendable {
  public var previousRevision: Int
  public var revision: Int
  public var tombstoneRevision: Int

  public init(previousRevision: Int, revision: Int, tombstoneRevision: Int) {
    self.previousRevision = previousRevision
    self.revision = revision
    self.tombstoneRevision = tombstoneRevision
  }
}

/// What a write to a PostgreSQL store tells every server: which drawing is
/// at which revision now, and whether by appended changes (read them from
/// the log) or by a replacement (`save`, `delete`: clients start over).
/// The longest `broadcast` payload, in bytes: PostgreSQL's `NOTIFY` takes
/// under 8,000.
public let maximumBroadcastLength = 7_900

public struct DrawingNotice: Hashable, Sendable {
  public enum Kind: String, Sendable {
    /// Changes appended to the log, up to `revision`.
    case append = "a"
    /// The document replaced (`save`): at `revision`, with an empty log.
    case save = "s"
    /// The drawing deleted: its tombstone is at `revision`.
    case delete = "d"
    /// The drawing renamed to `renamedTo`, its revisions `shift` higher;
    /// the old name's tombstone is at `revision`.
    case rename = "r"
    /// One appended batch itself: `changes` (their stored text), which
    /// end at `revision`, under `key`. The `append` notice of the same
    /// revision follows it; servers that do not know this kind ignore it.
    case changes = "c"
  }

  public var kind: Kind
  public var name: String
  public var revision: Int
  /// For `.rename`: the new name, and how far the revisions moved.
  public var renamedTo: String?
  public var shift = 0
  /// For `.changes`: the batch's key and its changes' text.
  public var key: String?
  public var changes: [String] = []

  public init(kind: Kind, name: String, revision: Int, renamedTo: String? = nil, shift: Int = 0) {
    self.kind = kind
    self.name = name
    self.revision = revision
    self.renamedTo = renamedTo
    self.shift = shift
  }

  /// `KIND REVISION NAME`: the name last, as it may hold spaces; a rename
  /// is `r REVISION SHIFT NEWNAME NAME` (names are `DrawingName`s there:
  /// no spaces).
  var payload: String {
    if kind == .rename, let renamedTo { return "r \(revision) \(shift) \(renamedTo) \(name)" }
    return "\(kind.rawValue) \(revision) \(name)"
  }

  init?(payload: String) {
    if payload.hasPrefix("\(Kind.changes.rawValue) ") {
      self.init(changesPayload: payload)
      return
    }
    let parts = payload.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
    guard parts.count == 3, let kind = Kind(rawValue: String(parts[0])), let revision = Int(parts[1]) else {
      return nil
    }
    guard kind == .rename else {
      self.init(kind: kind, name: String(parts[2]), revision: revision)
      return
    }
    let rest = parts[2].split(separator: " ", omittingEmptySubsequences: false)
    guard rest.count == 3, let shift = Int(rest[0]) else { return nil }
    self.init(kind: kind, name: String(rest[2]), revision: revision, renamedTo: String(rest[1]), shift: shift)
  }

  /// `c REVISION COUNT KEY NAME`, a newline, and COUNT changes, one a line
  /// (`touchtracker_append_group`, migration 6); KEY is `.` for none.
  private init?(changesPayload payload: String) {
    guard let newline = payload.firstIndex(of: "\n") else { return nil }
    let head = payload[..<newline].split(separator: " ", omittingEmptySubsequences: false)
    guard head.count == 5, let revision = Int(head[1]), let count = Int(head[2]), count > 0 else { return nil }
    let changes = payload[payload.index(after: newline)...].split(separator: "\n", omittingEmptySubsequences: false)
    guard changes.count == count, revision >= count else { return nil }
    self.init(kind: .changes, name: String(head[4]), revision: revision)
    key = head[3] == "." ? nil : String(head[3])
    self.changes = changes.map(String.init)
  }
}
