/// The client's half of sync (docs/DESIGN.md, "Sync"): which of this
/// person's changes the server has, which go next and under which
/// idempotency key, what revision the drawing builds on, and what this
/// browser's copy must hold. It never asks the person to choose: changes
/// merge by id in the server's order (`Drawing.apply`), and a drawing
/// replaced as a whole gets this person's unsent changes on top.
///
/// It does no I/O and touches no view. Each event (a method) leaves
/// `SyncEffect`s for its host: what to do to the drawing (others' changes
/// in, this person's confirmed or withdrawn), what to keep in this
/// browser's copy, what to send. The page's JavaScript only carries them
/// out (fetch, WebSocket, IndexedDB, timers); the tests run it natively.
public struct SyncClient: Sendable {
  /// How the client reaches the server.
  public enum Connection: UInt8, Sendable {
    /// Not at all: changes wait, and are kept in this browser.
    case offline
    /// The socket opened and said hello; the server's backlog is coming.
    case syncing
    /// Up to date: changes go out as they are made.
    case live
  }

  /// A batch of this person's changes, with the idempotency key it keeps
  /// until the server acknowledges it: sent again with it, it is appended once.
  public struct Batch: Equatable, Sendable {
    public let key: String
    public let changes: [Change]
    /// The revision a `POST` answered for it, while the changes before it
    /// are read (`.pull`); nil otherwise.
    var answered: Int?
  }

  /// The server revision the drawing builds on (every change up to it is
  /// in the drawing): nil while unknown (opened offline from nothing).
  public private(set) var revision: Int?
  /// This person's changes the server has not acknowledged, in batches, oldest first.
  public private(set) var batches: [Batch] = []
  /// This person's changes not in a batch yet, oldest first.
  public private(set) var unbatched: [Change] = []
  public private(set) var connection = Connection.offline
  /// Whether changes go over the socket (`true`) or by `POST`: until a
  /// socket is welcomed (none may ever be: `?live=off`, a proxy that drops
  /// them), changes go by `POST`.
  public private(set) var overSocket: Bool
  /// `batches[0]` is on its way and not answered yet.
  public private(set) var inFlight = false
  /// What the host has to do, oldest first (`takeEffects`).
  public private(set) var effects: [SyncEffect] = []
  /// Entries in this browser's copy after its base.
  public private(set) var journalLength = 0

  /// A socket is open (said hello, or about to): a drawing read again says hello on it.
  private var socketOpen = false
  private let keyPrefix: String
  private var nextKey = 1

  /// Entries after which this browser's copy is written anew (`.rebase`):
  /// reading it replays them all.
  public static let journalLimit = 1000
  /// The most changes one batch carries (a message is at most 1 MiB).
  public static let batchLimit = 1000

  /// `client`: this visit's id (8 hex digits), the start of every key it makes.
  public init(client: String, overSocket: Bool = true) {
    keyPrefix = client + "-"
    self.overSocket = overSocket
  }

  /// How many of this person's changes the server does not have yet.
  public var pending: Int {
    var count = unbatched.count
    for batch in batches { count += batch.changes.count }
    return count
  }

  /// Every unacknowledged change, oldest first: what the view keeps on top of the server's drawing.
  public var pendingChanges: [Change] {
    var changes: [Change] = []
    for batch in batches { changes += batch.changes }
    return changes + unbatched
  }

  public mutating func takeEffects() -> [SyncEffect] {
    defer { effects.removeAll(keepingCapacity: true) }
    return effects
  }

  // MARK: Opening

  /// A drawing at `revision` was opened with nothing of this person's on
  /// top (nil: a drawing read from nowhere, revision unknown). Anything
  /// the client held is gone with the old drawing.
  public mutating func opened(revision: Int?) {
    reopen(revision: revision)
    effects.append(.rebase)
  }

  private mutating func reopen(revision: Int?) {
    self.revision = revision
    batches.removeAll()
    unbatched.removeAll()
    inFlight = false
    journalLength = 0
  }

  /// Opens this browser's copy: its `journal` replayed after its base, which
  /// the view shows at `baseRevision`. With `serverRevision`, the view shows
  /// the server's drawing at that revision instead, which holds every
  /// change the copy had from the server: only this person's unacknowledged
  /// changes go on top (sent again with their keys, appended once).
  public mutating func restore(_ journal: [SyncJournal.Entry], baseRevision: Int?, serverRevision: Int? = nil) {
    reopen(revision: baseRevision)
    let onServer = serverRevision != nil
    for entry in journal {
      switch entry {
      case .own(let changes):
        unbatched += changes
      case .batch(let key, let count):
        let taken = min(max(count, 0), unbatched.count)
        batches.append(Batch(key: key, changes: Array(unbatched.prefix(taken))))
        unbatched.removeFirst(taken)
      case .theirs(let at, let changes):
        if !onServer { effects.append(.receive(changes)) }
        revision = max(revision ?? 0, at)
      case .acknowledged(let key, let at):
        guard let index = batches.firstIndex(where: { $0.key == key }) else { continue }
        // At or below the revision the copy is at, it was withdrawn: the drawing had it already.
        let inDrawing = revision.map { at <= $0 } ?? false
        if !onServer && !inDrawing { effects.append(.receive(batches[index].changes)) }
        batches.remove(at: index)
        if !inDrawing { revision = at }
      }
    }
    if let serverRevision { revision = serverRevision }
    if pending > 0 { effects.append(.restore(pendingChanges)) }
    if onServer {
      // The copy is written anew on the server's drawing and what is pending.
      effects.append(.rebase)
      journalLength = batches.count + (unbatched.isEmpty ? 0 : 1)
    } else {
      journalLength = journal.count
    }
  }

  /// The entries that stand for what is pending, after a base: what `.rebase` writes.
  public var pendingJournal: [SyncJournal.Entry] {
    var entries: [SyncJournal.Entry] = []
    for batch in batches {
      entries.append(.own(batch.changes))
      entries.append(.batch(key: batch.key, count: batch.changes.count))
    }
    if !unbatched.isEmpty { entries.append(.own(unbatched)) }
    return entries
  }

  // MARK: This person's changes

  /// This person finished `changes` (taken from the view, which shows them already).
  public mutating func took(_ changes: [Change]) {
    guard !changes.isEmpty else { return }
    unbatched += changes
    keep(.own(changes))
  }

  /// Sends what waits, if the connection lets it (the page calls it a
  /// moment after a change, so that quick changes go together, and on
  /// every retry).
  public mutating func flush() {
    guard connection == .live, revision != nil, !inFlight else { return }
    if batches.isEmpty {
      guard !unbatched.isEmpty else { return }
      formBatch()
    }
    inFlight = true
    effects.append(.send(key: batches[0].key, changes: batches[0].changes))
  }

  /// The oldest unbatched changes (at most `batchLimit`) become a batch under a new key.
  private mutating func formBatch() {
    let count = min(unbatched.count, Self.batchLimit)
    let batch = Batch(key: keyPrefix + String(nextKey), changes: Array(unbatched.prefix(count)))
    nextKey += 1
    unbatched.removeFirst(count)
    batches.append(batch)
    keep(.batch(key: batch.key, count: count))
  }

  // MARK: The connection

  /// The socket opened (or, over HTTP, the server answered): say where this copy is.
  public mutating func connected() {
    inFlight = false
    guard overSocket else {
      connection = revision == nil ? .offline : .live
      if revision == nil { effects.append(.fetchDocument) } else { flush() }
      return
    }
    connection = .syncing
    if let revision { effects.append(.hello(since: revision)) } else { effects.append(.fetchDocument) }
  }

  /// A socket opened: it says hello from the revision this copy is at
  /// (with none known, the drawing is read first).
  public mutating func socketOpened() {
    socketOpen = true
    if overSocket {
      connection = .syncing
      inFlight = false
    }
    if let revision { effects.append(.hello(since: revision)) } else { effects.append(.fetchDocument) }
  }

  /// The socket closed (or its heartbeat missed the deadline). Before a
  /// socket was welcomed, changes go on by `POST`.
  public mutating func socketClosed() {
    socketOpen = false
    if overSocket { disconnected() }
  }

  /// The socket closed, the heartbeat missed its deadline, or a request
  /// found no server: everything waits (and is kept) until `connected`.
  public mutating func disconnected() {
    connection = .offline
    inFlight = false
  }

  /// The server's backlog is in: from now on every change goes at once, over the socket.
  public mutating func welcomed(revision: Int) {
    if !overSocket {
      overSocket = true
      // A POST on its way is answered by the socket's backlog too (its key): the first answer counts.
      inFlight = false
    }
    connection = .live
    self.revision = revision
    flush()
  }

  /// Others' changes, the last at `revision`; `key`: the batch's key, when
  /// the server knows it (this person's own batch, its answer lost).
  public mutating func received(_ changes: [Change], revision: Int, key: String?) {
    if let key, let first = batches.first, first.key == key {
      acknowledged(key: key, revision: revision)
      return
    }
    if let current = self.revision, revision <= current { return }  // had already
    effects.append(.receive(changes))
    self.revision = revision
    keep(.theirs(revision: revision, changes: changes))
  }

  /// The server has the batch `key`, its last change at `revision`.
  public mutating func acknowledged(key: String, revision: Int) {
    guard let first = batches.first, first.key == key else { return }
    batches.removeFirst()
    inFlight = false
    if let current = self.revision, revision <= current {
      // Appended before the drawing this view shows (its answer lost, then
      // the drawing read again): the drawing has it already.
      effects.append(.withdraw(first.changes.count))
    } else {
      effects.append(.confirm(first.changes.count))
      self.revision = revision
    }
    keep(.acknowledged(key: key, revision: revision))
    flush()
  }

  /// A `POST` of batch `key` answered `revision`. When nothing came between
  /// it and the drawing here, it is acknowledged; otherwise what came
  /// between is read first (`.pull`), so that it goes in beneath.
  public mutating func answered(key: String, revision: Int) {
    guard let first = batches.first, first.key == key, let current = self.revision else { return }
    connection = .live
    if revision - first.changes.count == current || revision <= current {
      acknowledged(key: key, revision: revision)
    } else {
      batches[0].answered = revision
      effects.append(.pull(since: current))
    }
  }

  /// What `GET .../changes?since=R` answered: the log's changes after R
  /// (the revision `.pull` asked from), each with its revision. This
  /// person's batch among them is its acknowledgement; the rest are others'.
  public mutating func pulled(_ log: [(revision: Int, change: Change)], since: Int) {
    guard self.revision == since else { return }
    var others: [Change] = []
    var at = since
    for (revision, change) in log where revision > at {
      if let first = batches.first, let answered = first.answered,
        revision > answered - first.changes.count, revision <= answered
      {
        if !others.isEmpty { received(others, revision: at, key: nil) }
        others.removeAll()
        if revision == answered { acknowledged(key: first.key, revision: answered) }
      } else {
        others.append(change)
      }
      at = revision
    }
    if !others.isEmpty { received(others, revision: at, key: nil) }
  }

  /// The server no longer leads from this copy's revision to its drawing
  /// (the drawing was replaced, deleted, or its log folded): read the
  /// drawing (`.fetchDocument`), then `replaced(revision:)`.
  public mutating func reset() {
    connection = .syncing
    inFlight = false
    effects.append(.fetchDocument)
  }

  /// The view shows the server's drawing at `revision` now (read after a
  /// `reset`, or when the revision was unknown). Batches the server
  /// answered by then are in it; the rest go on top and out again.
  public mutating func replaced(revision: Int) {
    let before = pending
    batches.removeAll { $0.answered.map { $0 <= revision } ?? false }
    for index in batches.indices { batches[index].answered = nil }
    self.revision = revision
    inFlight = false
    if pending > 0 { effects.append(.restore(pendingChanges)) }
    // Every change that waited is in what is shown now: in the drawing read, or on top of it.
    if before > 0 { effects.append(.replaced(kept: before)) }
    effects.append(.rebase)
    journalLength = batches.count + (unbatched.isEmpty ? 0 : 1)
    if socketOpen { effects.append(.hello(since: revision)) }
    if !overSocket {
      // Read over HTTP: the server answers.
      connection = .live
      flush()
    }
  }

  /// The server refused batch `key` for good (not a lost connection: a
  /// 4xx other than a conflict). It leaves the outbox; the view keeps
  /// showing it until the drawing is read again.
  public mutating func refused(key: String) {
    guard let first = batches.first, first.key == key else { return }
    batches.removeFirst()
    inFlight = false
    effects.append(.confirm(first.changes.count))
    keep(.acknowledged(key: key, revision: revision ?? 0))
  }

  /// A write to this browser's copy failed: it may lack entries, so it is written anew.
  public mutating func rewriteCopy() {
    effects.append(.rebase)
    journalLength = batches.count + (unbatched.isEmpty ? 0 : 1)
  }

  /// The drawing was renamed on the server, its revisions moved up by `shift`.
  public mutating func renamed(shift: Int) {
    if let current = revision { revision = current + shift }
    for index in batches.indices { batches[index].answered = batches[index].answered.map { $0 + shift } }
  }

  /// The page is going away: the oldest batch (made now if need be) goes
  /// out once more by a request that outlives the page, with its key.
  public mutating func leaving() {
    guard revision != nil else { return }
    if batches.isEmpty {
      guard !unbatched.isEmpty else { return }
      formBatch()
    }
    effects.append(.send(key: batches[0].key, changes: batches[0].changes))
  }

  private mutating func keep(_ entry: SyncJournal.Entry) {
    effects.append(.keep(entry))
    journalLength += 1
    if journalLength > Self.journalLimit {
      effects.append(.rebase)
      journalLength = batches.count + (unbatched.isEmpty ? 0 : 1)
    }
  }
}
