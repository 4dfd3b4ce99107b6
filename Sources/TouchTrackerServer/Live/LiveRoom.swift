import NIOConcurrencyHelpers
import TouchTrackerCore
import TouchTrackerStore

/// Everyone with one drawing open live, and the one way its revisions
/// change while they are: every append, save and delete of the drawing in
/// this process goes through `gate`, commits, and is queued to every
/// client before the next begins.
///
/// That is the ordering guarantee: the gate runs commits one at a time, and
/// each commit's messages are queued (never awaited: `LiveOutbox`) before
/// the gate opens again, so every outbox receives messages in revision
/// order, the sender's `ack` among them. A client joins under the gate too:
/// its backlog is read, queued and the client added in one step, so a
/// commit is either in the backlog or broadcast to it, never both or
/// neither. Nothing is queued before its commit returned (durable: the
/// store syncs the WAL on commit).
///
/// Appends that arrive while a commit is on its way to disk wait at the
/// gate; the first of them through commits them all in one transaction
/// (group commit), so one drawing's rate is not one fsync per batch.
///
/// Several servers on one database (PostgreSQL): other servers' commits
/// move the drawing too. Each member remembers the revision it has been
/// sent up to; when the store says another server committed (`heard`), or a
/// commit here lands after revisions this room has not seen, the room reads
/// the log after the lowest of those revisions and sends each member the
/// part it lacks, under the gate, before anything newer. So every member
/// gets every change once, in the database's revision order, whichever
/// server committed it.
final class LiveRoom: Sendable {
  let name: DrawingName
  private let store: any DrawingStorage
  private let gate = SerialGate()
  private let state = NIOLockedValueBox(State())
  private let limits: LiveLimits
  /// Sends this room's presence to the other servers on the database (nil: none).
  private let presenceRelay: PresenceRelay?

  private struct State {
    var members: [ObjectIdentifier: Member] = [:]
    var pending: [PendingAppend] = []
    /// Reads of the log that failed in a row (`lookAgainLater`), and
    /// whether another look is waiting.
    var failedReads = 0
    var lookingAgain = false
    /// Notices heard and not yet handled (`hear`), in the order heard, and
    /// whether a task is handling them.
    var notices: [DrawingNotice?] = []
    var hearing = false
    /// The batches of the commit this room has on its way, until it has
    /// sent them (their own notices can come back first: `sendCarried`).
    var committing: [PendingAppend] = []
  }

  /// One connection in the room.
  private struct Member {
    var outbox: LiveOutbox
    /// The client id of its `hello`; nil before.
    var by: String?
    /// Whether it gets the drawing's changes: after `welcome`, until a `reset`.
    var isJoined = false
    /// The revision it has every change up to, while joined.
    var revision = 0
    /// Whether its `hello` carried a share link's key (not the admin's):
    /// rotating the links or deleting the drawing closes it.
    var byLink = false
  }

  init(name: DrawingName, store: any DrawingStorage, limits: LiveLimits, presenceRelay: PresenceRelay? = nil) {
    self.name = name
    self.store = store
    self.limits = limits
    self.presenceRelay = presenceRelay
  }

  /// How long each member's writer waits after a frame (`LiveLimits.pace`):
  /// nil in a room smaller than `LiveLimits.pacedMembers`. Apart from the
  /// room's state, so that a thousand writers reading it do not take the
  /// lock the room's fan-out holds.
  var pace: Duration? { paced.withLockedValue { $0 } }
  private let paced = NIOLockedValueBox<Duration?>(nil)

  func add(_ outbox: LiveOutbox) {
    state.withLockedValue {
      $0.members[ObjectIdentifier(outbox)] = Member(outbox: outbox)
      let pace = limits.pace(members: $0.members.count)
      paced.withLockedValue { $0 = pace }
    }
  }

  /// Removes a connection; the others get `leave` if it had said hello.
  func remove(_ outbox: LiveOutbox) {
    let left = state.withLockedValue { state -> String? in
      guard let member = state.members.removeValue(forKey: ObjectIdentifier(outbox)) else { return nil }
      let pace = limits.pace(members: state.members.count)
      paced.withLockedValue { $0 = pace }
      guard let by = member.by else { return nil }
      for other in state.members.values where other.by != nil { other.outbox.send(.leave(by: by)) }
      return by
    }
    if let left { presenceRelay?.relay(name, client: left, lines: nil) }
  }

  /// `outbox` overflowed (`LiveOutbox`): what it held is dropped, so the
  /// client is no longer joined; it is sent `reset` and reads the document.
  /// Under the gate, so that it is ordered with `join`: a `hello` being
  /// answered gets its backlog and `welcome`, then the `reset`. False if
  /// the connection is not in the room or never said hello (it was sent
  /// only pongs and errors: it is closed instead).
  func fellBehind(_ outbox: LiveOutbox) async -> Bool {
    let id = ObjectIdentifier(outbox)
    return await gate.run {
      state.withLockedValue { state in
        guard let member = state.members[id], member.by != nil else { return false }
        state.members[id]?.isJoined = false
        return member.outbox.resume(with: .reset(revision: member.revision))
      }
    }
  }

  /// `hello`: queues the changes after `since` and `welcome`, or `reset`
  /// when the log no longer reaches back to `since`.
  func join(_ outbox: LiveOutbox, since: Int, by: String, byLink: Bool = false) async throws {
    let id = ObjectIdentifier(outbox)
    try await gate.run {
      state.withLockedValue { state in
        state.members[id]?.by = by
        state.members[id]?.byLink = byLink
        state.members[id]?.isJoined = false
      }
      var messages: [ServerMessage] = []
      var revision = 0
      do {
        if let stored = try await store.changes(of: name, since: since) {
          messages = Self.backlog(stored.changes)
          revision = stored.revision
        } else if let moved = try await store.movedTo(name) {
          // Renamed while this client was away: it follows, as those here did.
          state.withLockedValue { state in
            state.members[id]?.outbox.send(.renamed(name: moved.name.rawValue, shift: moved.shift))
            state.members[id]?.outbox.finish(LiveOutbox.Close(code: LiveError.normalClosure, reason: ""))
          }
          return
        } else {
          // No drawing (never made, or deleted): at revision 0.
          if since != 0 {
            state.withLockedValue { _ = $0.members[id]?.outbox.send(.reset(revision: 0)) }
            return
          }
        }
      } catch DrawingStoreError.changesGone(_, _, _, let current) {
        state.withLockedValue { _ = $0.members[id]?.outbox.send(.reset(revision: current)) }
        return
      }
      let bytes = messages.reduce(0) { $0 + $1.text.utf8.count }
      let fits = messages.count <= limits.backlogMessages && bytes <= limits.backlogBytes
      state.withLockedValue { state in
        guard let member = state.members[id] else { return }
        guard fits else {
          member.outbox.send(.reset(revision: revision))
          return
        }
        for message in messages { member.outbox.send(message) }
        member.outbox.send(.welcome(revision: revision))
        state.members[id]?.isJoined = true
        state.members[id]?.revision = revision
      }
    }
  }

  /// The log's rows as `changes` messages: consecutive rows of one batch
  /// key are one message; rows without a key are one message each.
  static func backlog(_ changes: [StoredChange]) -> [ServerMessage] {
    var messages: [ServerMessage] = []
    var run: [StoredChange] = []
    func flush() {
      guard let last = run.last else { return }
      messages.append(.changes(revision: last.revision, key: last.batchKey, by: nil, changes: run.map(\.json)))
      run = []
    }
    for change in changes {
      if let last = run.last, last.batchKey == nil || last.batchKey != change.batchKey { flush() }
      run.append(change)
    }
    flush()
    return messages
  }

  /// Appends `batch` (group commit: see the type), then queues it to every
  /// joined client but `sender` and the `ack` to `sender`.
  ///
  /// - Parameter sender: The connection it came from; nil for `POST .../changes`.
  func append(_ batch: ChangeBatch, from sender: LiveOutbox?) async throws -> AppendedBatch {
    let ticket = PendingAppend(batch: batch, sender: sender.map { ObjectIdentifier($0) })
    state.withLockedValue { $0.pending.append(ticket) }
    return try await gate.run {
      if let result = state.withLockedValue({ _ in ticket.result }) { return try result.get() }
      let tickets = state.withLockedValue { state in
        defer { state.pending = [] }
        state.committing = state.pending
        return state.pending
      }
      do {
        let results = try await store.append(batches: tickets.map(\.batch), to: name)
        // Revisions before this commit's that another server committed and
        // this room has not heard of yet go out first.
        let first = results.compactMap { result in
          (try? result.get()).flatMap { $0.count > 0 ? $0.revision - $0.count + 1 : nil }
        }.min()
        if let first { await catchUp(through: first - 1) }
        state.withLockedValue { state in
          state.committing = []
          for (ticket, result) in zip(tickets, results) {
            ticket.result = result
            if case .success(let appended) = result { Self.broadcast(ticket, appended, in: &state) }
          }
        }
      } catch {
        state.withLockedValue { state in
          state.committing = []
          for ticket in tickets { ticket.result = .failure(error) }
        }
      }
      return try state.withLockedValue { _ in ticket.result! }.get()
    }
  }

  private static func broadcast(_ ticket: PendingAppend, _ appended: AppendedBatch, in state: inout State) {
    let sender = ticket.sender.flatMap { state.members[$0] }
    if let sender, let key = ticket.batch.key {
      sender.outbox.send(.ack(key: key, revision: appended.revision))
    }
    guard appended.count > 0 else { return }
    let start = appended.revision - appended.count
    if let id = ticket.sender, state.members[id]?.revision == start { state.members[id]?.revision = appended.revision }
    let text = ServerMessage.changes(
      revision: appended.revision, key: ticket.batch.key, by: sender?.by,
      changes: ticket.batch.changes.map { String(decoding: ChangeCoder.encode($0), as: UTF8.self) }
    ).text
    send(text, from: start, to: appended.revision, in: &state, except: ticket.sender)
  }

  /// Sends `text`, the changes after `start` up to `end`, to every joined
  /// member at `start` (but `except`), which are at `end` then.
  private static func send(
    _ text: String, from start: Int, to end: Int, in state: inout State, except: ObjectIdentifier? = nil
  ) {
    for (id, member) in state.members where member.isJoined && id != except && member.revision == start {
      member.outbox.send(text: text)
      state.members[id]?.revision = end
    }
  }

  /// Queues `notice` for `heard`, in the order heard: a batch's `changes`
  /// notice must be handled before the `append` notice after it, which
  /// would otherwise read the log for what the first one carries.
  ///
  /// A `changes` notice goes out at once instead (`sendCarried`), not after
  /// the gate: the gate is held by this server's own commits, each a round
  /// trip to the database, and a carried batch waiting behind one was late
  /// by that much, and made that commit read the log for the members it
  /// had not reached yet. Sending it outside the gate keeps every order
  /// the gate keeps: a member only ever gets the changes right after its
  /// revision, under the room's lock, whoever sends them.
  func hear(_ notice: DrawingNotice?) {
    if let notice, notice.kind == .changes {
      sendCarried(notice)
      return
    }
    let starts = state.withLockedValue { state in
      state.notices.append(notice)
      defer { state.hearing = true }
      return !state.hearing
    }
    guard starts else { return }
    Task {
      while let next = state.withLockedValue({ state -> DrawingNotice?? in
        guard !state.notices.isEmpty else {
          state.hearing = false
          return nil
        }
        return state.notices.removeFirst()
      }) {
        await heard(next)
      }
    }
  }

  /// Another server committed: `notice` says the drawing is at
  /// `notice.revision` now (nil: notices may have been missed, look).
  /// Members behind it get the changes they lack, or `reset` after a
  /// replacement. A `changes` notice carries its batch: members right
  /// before it get it as it is, and the rest wait for the `append` notice
  /// that follows, which reads the log for them.
  func heard(_ notice: DrawingNotice?) async {
    if let notice, notice.kind == .changes {
      sendCarried(notice)
      return
    }
    await gate.run {
      if let notice, notice.kind == .rename, let newName = notice.renamedTo {
        // Renamed by another server: its clients here follow it.
        sendRenamed(newName, shift: notice.shift)
        return
      }
      if let notice, notice.kind != .append {
        // As for a PUT or DELETE here: a deleted drawing is at revision 0.
        let reset = notice.kind == .delete ? 0 : notice.revision
        state.withLockedValue { state in
          for (id, member) in state.members where member.isJoined && member.revision < notice.revision {
            member.outbox.send(.reset(revision: reset))
            state.members[id]?.isJoined = false
          }
        }
        return
      }
      let behind = state.withLockedValue { state in
        state.members.values.contains { $0.isJoined && $0.revision < (notice?.revision ?? .max) }
      }
      if behind { await catchUp(through: nil) }
    }
  }

  /// Sends the batch a `changes` notice carries to the members right
  /// before it; members further behind wait for the `append` notice after
  /// it, which reads the log for them. Needs no gate (see `hear`).
  ///
  /// The notice of this room's own commit can come back before the commit
  /// does: that batch is left to the commit, which sends it with its `ack`
  /// to its sender (sent first, it would reach the sender as a change,
  /// then the `ack` after it). A batch of another server with the key of
  /// one this room is committing is the same batch sent again, and is left
  /// too; so is any batch without a key while a socket's batch without one
  /// is on its way. Those reach the members from the commit or from the
  /// `append` notice after it.
  private func sendCarried(_ notice: DrawingNotice) {
    let start = notice.revision - notice.changes.count
    let text = ServerMessage.changes(revision: notice.revision, key: notice.key, by: nil, changes: notice.changes).text
    state.withLockedValue { state in
      let mayBeOwn = state.committing.contains { ticket in
        ticket.batch.key == notice.key && (notice.key != nil || ticket.sender != nil)
      }
      if !mayBeOwn { Self.send(text, from: start, to: notice.revision, in: &state) }
    }
  }

  /// Sends every joined member the changes after its revision up to
  /// `bound` (nil: all there are), read from the log; a member whose
  /// changes were compacted away, or whose drawing is gone, gets `reset`.
  /// Under the gate. Reads nothing when every member is at `bound`.
  private func catchUp(through bound: Int?) async {
    let lowest = state.withLockedValue { state in
      state.members.values.filter { $0.isJoined && $0.revision < (bound ?? .max) }.map(\.revision).min()
    }
    guard let lowest else { return }
    let stored: StoredChanges?
    do {
      stored = try await store.changes(of: name, since: lowest)
    } catch DrawingStoreError.changesGone(_, _, _, let current) {
      stored = StoredChanges(revision: current, changes: [])
    } catch {
      // The database failed: look again soon, or the members behind would
      // wait for the next change, which may never come.
      lookAgainLater()
      return
    }
    if stored == nil {
      await tellGone()
      return
    }
    state.withLockedValue { $0.failedReads = 0 }
    let current = stored?.revision ?? 0
    let rows = (stored?.changes ?? []).filter { change in bound.map { change.revision <= $0 } ?? true }
    let end = bound.map { min($0, current) } ?? current
    state.withLockedValue { state in
      for (id, member) in state.members where member.isJoined && member.revision < end {
        let lacking = rows.filter { $0.revision > member.revision }
        guard stored != nil, lacking.first?.revision == member.revision + 1, lacking.last?.revision == end else {
          member.outbox.send(.reset(revision: current))
          state.members[id]?.isJoined = false
          continue
        }
        for message in Self.backlog(lacking) { member.outbox.send(message) }
        state.members[id]?.revision = end
      }
    }
  }

  /// The drawing is gone, and members may not know: a notice of its rename
  /// or delete was missed (`heard(nil)`). As `join` tells a client coming
  /// back: renamed, they follow it; deleted, those past revision 0 are
  /// reset to it. Under the gate.
  private func tellGone() async {
    let moved: DrawingMove?
    do {
      moved = try await store.movedTo(name)
    } catch {
      lookAgainLater()
      return
    }
    state.withLockedValue { $0.failedReads = 0 }
    if let moved {
      sendRenamed(moved.name.rawValue, shift: moved.shift)
      return
    }
    state.withLockedValue { state in
      for (id, member) in state.members where member.isJoined && member.revision > 0 {
        member.outbox.send(.reset(revision: 0))
        state.members[id]?.isJoined = false
      }
    }
  }

  /// After a failed read of the log: `heard(nil)` again in 50 ms, doubling
  /// to 2 s while reads keep failing; one look waits at a time. It stops
  /// once no member is behind (they caught up, or left).
  private func lookAgainLater() {
    let failed = state.withLockedValue { state -> Int? in
      state.failedReads += 1
      guard !state.lookingAgain else { return nil }
      state.lookingAgain = true
      return state.failedReads
    }
    guard let failed else { return }
    Task {
      try? await Task.sleep(for: .milliseconds(min(2000, 50 << min(failed - 1, 6))))
      state.withLockedValue { $0.lookingAgain = false }
      await heard(nil)
    }
  }

  /// A `PUT` or `DELETE` of the drawing: runs `replace` under the gate, then
  /// sends `reset` with the revision it returns to every joined client, who
  /// then reads the document and says `hello` again.
  func replace<T: Sendable>(revision: (T) -> Int?, _ replace: () async throws -> T) async throws -> T {
    try await gate.run {
      let result = try await replace()
      if let revision = revision(result) {
        state.withLockedValue { state in
          for (id, member) in state.members where member.isJoined {
            member.outbox.send(.reset(revision: revision))
            state.members[id]?.isJoined = false
          }
        }
      }
      return result
    }
  }

  /// A rename of the drawing: runs `rename` under the gate; if it returns
  /// the new name (and how far the revisions moved), every client here
  /// (joined or not) is sent `renamed` with it and its connection is
  /// closed, to follow the drawing to its new name.
  func move<T: Sendable>(to moved: (T) -> (name: DrawingName, shift: Int)?, _ rename: () async throws -> T)
    async throws -> T
  {
    try await gate.run {
      let result = try await rename()
      if let (newName, shift) = moved(result) { sendRenamed(newName.rawValue, shift: shift) }
      return result
    }
  }

  /// Tells every client here that said hello that the drawing is `newName`
  /// now, and closes every connection.
  private func sendRenamed(_ newName: String, shift: Int) {
    state.withLockedValue { state in
      for member in state.members.values {
        // Only a client that said hello (its key checked) learns where the drawing went.
        if member.by != nil { member.outbox.send(.renamed(name: newName, shift: shift)) }
        member.outbox.finish(LiveOutbox.Close(code: LiveError.normalClosure, reason: ""))
      }
    }
  }

  /// Closes every connection that joined with a share link (after the
  /// links were replaced or the drawing deleted): each gets `error` with
  /// `reason`, then a 1008 close; its next `hello` needs a key that works.
  func dismissLinkHolders(_ reason: String) {
    state.withLockedValue { state in
      for member in state.members.values where member.byLink {
        member.outbox.send(.error(reason))
        member.outbox.finish(LiveOutbox.Close(code: LiveError.policyViolation, reason: ""))
      }
    }
  }

  /// Relays a client's lines in progress to every other client that said hello.
  /// Relays a client's lines in progress to every other client that said
  /// hello, here and on the other servers.
  func relay(presence lines: [PresenceLine], from outbox: LiveOutbox) {
    let id = ObjectIdentifier(outbox)
    let by = state.withLockedValue { state -> String? in
      guard let by = state.members[id]?.by else { return nil }
      let text = ServerMessage.presence(by: by, lines: PresenceLine.json(lines)).text
      for (other, member) in state.members where other != id && member.by != nil {
        member.outbox.send(text: text, of: by)
      }
      return by
    }
    if let by { presenceRelay?.relay(name, client: by, lines: lines) }
  }

  /// Another server's client `by` draws `lines` (nil: it left, or its
  /// server went silent): every client here that said hello is told.
  func showRemote(by: String, lines: [PresenceLine]?) {
    let message = lines.map { ServerMessage.presence(by: by, lines: PresenceLine.json($0)) } ?? .leave(by: by)
    let text = message.text
    state.withLockedValue { state in
      for member in state.members.values where member.by != nil && member.by != by {
        member.outbox.send(text: text, of: by)
      }
    }
  }
}

/// One batch waiting at the gate; `result` is set, under the room's lock,
/// by whoever commits it.
private final class PendingAppend: @unchecked Sendable {
  let batch: ChangeBatch
  let sender: ObjectIdentifier?
  var result: Result<AppendedBatch, any Error>?

  init(batch: ChangeBatch, sender: ObjectIdentifier?) {
    self.batch = batch
    self.sender = sender
  }
}
