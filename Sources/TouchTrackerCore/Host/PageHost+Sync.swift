/// Sync as the page drives it (`Sync/`, `Web/sync/`): the page hands over
/// what happened (a frame's changes, a socket's message, a request's
/// answer), the drawing's part of the effects is carried out here at once,
/// and the rest is written for the page as
/// `{"revision": R, "pending": N, "connection": "live", "socket": true,
/// "journal": J, "effects": [...]}` (J: the entries this browser's copy
/// holds after its base once every `keep` is written)
/// (docs/DESIGN.md, "Sync").
extension PageHost {
  /// What happened, as the page tells the sync client through `tt_sync`
  /// (`SYNC` in Web/core/bridge.js, checked by `PageInterfaceTests`).
  public enum SyncInput: Int32, CaseIterable, Sendable {
    /// The live socket opened, or closed (or missed its heartbeat).
    case socketOpened = 0, socketClosed
    /// A drawing at revision `a` (-1: unknown) is open, nothing of this person's on top.
    case opened
    /// This browser's copy (`{"entries":[...]}` in `input`) after the drawing opened:
    /// its base at `a`, or (`b` >= 0) the server's drawing at `b`.
    case restore
    /// A frame with a finished change ended: this person's changes go to the client.
    case collect
    /// Send what waits, if it can.
    case flush
    case connected, disconnected
    /// A socket frame (in `input`).
    case message
    /// The POST of the batch on its way answered revision `a`, or was refused for good.
    case answered, refused
    /// `GET .../changes?since=a` answered (in `input`).
    case pulled
    /// The server's drawing at revision `a` is open now.
    case replaced
    /// A write to this browser's copy failed: it is written anew (a `rebase`).
    case rewrite
    /// The drawing was renamed, its revisions moved up by `a`.
    case renamed
    /// The page is going away: the oldest batch, to send once more.
    case leaving

    /// The name the page uses.
    public var name: String {
      switch self {
      case .socketOpened: "socket_opened"
      case .socketClosed: "socket_closed"
      case .opened: "opened"
      case .restore: "restore"
      case .collect: "collect"
      case .flush: "flush"
      case .connected: "connected"
      case .disconnected: "disconnected"
      case .message: "message"
      case .answered: "answered"
      case .refused: "refused"
      case .pulled: "pulled"
      case .replaced: "replaced"
      case .rewrite: "rewrite"
      case .renamed: "renamed"
      case .leaving: "leaving"
      }
    }
  }

  /// Hands the sync client `input`, with the `length` bytes of text in
  /// `input`'s buffer (when it reads any) and its numbers `a` and `b`
  /// (revisions as f64, -1 for none); returns the length of the answer.
  func sync(_ event: SyncInput, length: Int, _ a: Double, _ b: Double) -> Int {
    func revision(_ value: Double) -> Int? { value >= 0 && value <= 9e15 ? Int(value) : nil }
    switch event {
    case .socketOpened: return syncEvent { $0.socketOpened() }
    case .socketClosed: return syncEvent { $0.socketClosed() }
    case .opened: return syncEvent { $0.opened(revision: revision(a)) }
    case .restore: return syncRestore(length: length, baseRevision: revision(a), serverRevision: revision(b))
    case .collect: return syncCollect()
    case .flush: return syncEvent { $0.flush() }
    case .connected: return syncEvent { $0.connected() }
    case .disconnected: return syncEvent { $0.disconnected() }
    case .message: return syncMessage(length: length)
    case .answered:
      return syncEvent { client in
        guard let key = client.batches.first?.key, let revision = revision(a) else { return }
        client.answered(key: key, revision: revision)
      }
    case .refused:
      return syncEvent { client in
        guard let key = client.batches.first?.key else { return }
        client.refused(key: key)
      }
    case .pulled:
      guard let since = revision(a) else { return syncProblem("The revision to pull changes since is not a revision") }
      return syncPulled(length: length, since: since)
    case .replaced:
      return syncEvent { client in
        guard let revision = revision(a) else { return }
        client.replaced(revision: revision)
      }
    case .rewrite: return syncEvent { $0.rewriteCopy() }
    case .renamed: return syncEvent { $0.renamed(shift: a.isFinite ? Int(max(min(a, 9e15), -9e15)) : 0) }
    case .leaving: return syncEvent { $0.leaving() }
    }
  }

  /// Starts sync for a page whose id origin is `origin` (its key prefix),
  /// over the socket or by `POST`.
  func startSync(origin: UInt32, overSocket: Bool) {
    sync = SyncClient(client: Self.hex(origin), overSocket: overSocket)
  }

  /// Runs `event` on the sync client, carries out its drawing effects and
  /// writes the rest, with the status, into `output`; returns its length.
  func syncEvent(_ event: (inout SyncClient) -> Void) -> Int {
    // The drawing on screen is a recording's: nothing may act on it.
    guard player == nil else { return syncProblem("A recording is playing") }
    event(&sync)
    return writeSyncOutput(shown: [])
  }

  /// This person's changes finished since the last call go to the sync client.
  func syncCollect() -> Int {
    let taken = app.drawView.model.takeChanges()
    return syncEvent { client in
      var changes: [Change] = []
      changes.reserveCapacity(taken.count)
      for published in taken { changes.append(published.change) }
      client.took(changes)
    }
  }

  /// One frame from the socket (`length` bytes in `input`).
  func syncMessage(length: Int) -> Int {
    guard player == nil else { return syncProblem("A recording is playing") }
    guard let bytes = inputBytes(length) else { return syncProblem("Message length \(length) is out of range") }
    do {
      var shown: [JSONValue] = []
      for message in try SyncMessage.decode(bytes: bytes) {
        if case .other(let value) = message { shown.append(value) } else { sync.handle(message) }
      }
      return writeSyncOutput(shown: shown)
    } catch {
      return syncProblem(error.message)
    }
  }

  /// This browser's copy, `{"entries": [...]}` in `input`, after its base
  /// (the drawing the view shows, at `baseRevision`) or, with
  /// `serverRevision`, after the server's drawing the view shows instead.
  func syncRestore(length: Int, baseRevision: Int?, serverRevision: Int?) -> Int {
    guard let bytes = inputBytes(length) else { return syncProblem("Copy length \(length) is out of range") }
    do {
      let journal = try SyncJournal.decode(bytes: bytes)
      return syncEvent { $0.restore(journal, baseRevision: baseRevision, serverRevision: serverRevision) }
    } catch {
      return syncProblem(error.message)
    }
  }

  /// What `GET .../changes?since=` answered (`{"changes": [{"change": CHANGE, "revision": N}, ...]}` in `input`).
  func syncPulled(length: Int, since: Int) -> Int {
    guard let bytes = inputBytes(length) else { return syncProblem("Answer length \(length) is out of range") }
    let root: JSONValue
    do {
      root = try JSONParser.parse(bytes: bytes)
    } catch {
      return syncProblem(error.message)
    }
    do {
      var log: [(revision: Int, change: Change)] = []
      for element in try JSONCursor(root, path: "").require("changes").elements() {
        log.append(
          (try SyncJournal.count(element.require("revision")), try ChangeCoder.change(element.require("change"))))
      }
      return syncEvent { $0.pulled(log, since: since) }
    } catch {
      return syncProblem(error.message)
    }
  }

  /// The drawing without this person's unacknowledged changes, as a
  /// document: the base `.rebase` writes.
  func syncBaseDocument() -> Int {
    setOutput(DocumentCoder.encode(app.drawView.model.sharedState.base))
  }

  private func inputBytes(_ length: Int) -> [UInt8]? {
    guard length >= 0, length <= input.capacity else { return nil }
    input.setCount(length)
    return Array(input.elements)
  }

  /// `{"error": "..."}`: nothing was done.
  func syncProblem(_ message: String) -> Int {
    var json = JSONObjectWriter()
    json.string("error", message)
    return setOutput(json.finish())
  }

  private func writeSyncOutput(shown: [JSONValue]) -> Int {
    var writer = JSONWriter()
    writer.raw("{\"revision\":")
    if let revision = sync.revision { writer.write(Double(revision)) } else { writer.raw("null") }
    writer.raw(",\"pending\":")
    writer.write(Double(sync.pending))
    writer.raw(",\"connection\":")
    writer.write(Self.name(of: sync.connection))
    writer.raw(sync.overSocket ? ",\"socket\":true" : ",\"socket\":false")
    writer.raw(",\"journal\":")
    writer.write(Double(sync.journalLength))
    writer.raw(",\"effects\":[")
    var first = true
    func next() {
      if !first { writer.raw(",") }
      first = false
    }
    for effect in sync.takeEffects() {
      switch effect {
      case .receive(let changes): perform(.received(changes))
      case .confirm(let count): perform(.confirmed(count))
      case .withdraw(let count): perform(.withdrawn(count))
      case .restore(let changes): perform(.pending(changes))
      case .keep(let entry):
        next()
        writer.raw("{\"do\":\"keep\",\"entry\":")
        SyncJournal.write(entry, to: &writer)
        writer.raw("}")
      case .rebase:
        next()
        writer.raw("{\"do\":\"rebase\",\"entries\":[")
        for (index, entry) in sync.pendingJournal.enumerated() {
          if index > 0 { writer.raw(",") }
          SyncJournal.write(entry, to: &writer)
        }
        writer.raw("]}")
      case .hello(let since):
        next()
        writer.raw("{\"do\":\"hello\",\"since\":")
        writer.write(Double(since))
        writer.raw("}")
      case .send(let key, let changes):
        next()
        writer.raw("{\"do\":\"send\",\"key\":")
        writer.write(key)
        writer.raw(",\"message\":{\"type\":\"changes\",\"key\":")
        writer.write(key)
        writer.raw(",\"changes\":")
        SyncJournal.writeList(changes, to: &writer)
        writer.raw("}}")
      case .fetchDocument:
        next()
        writer.raw("{\"do\":\"fetch\"}")
      case .pull(let since):
        next()
        writer.raw("{\"do\":\"pull\",\"since\":")
        writer.write(Double(since))
        writer.raw("}")
      case .replaced(let kept):
        next()
        writer.raw("{\"do\":\"replaced\",\"kept\":")
        writer.write(Double(kept))
        writer.raw("}")
      }
    }
    for value in shown {
      next()
      writer.raw("{\"do\":\"show\",\"message\":")
      writer.write(value)
      writer.raw("}")
    }
    writer.raw("]}")
    return setOutput(writer.bytes)
  }

  static func name(of connection: SyncClient.Connection) -> String {
    switch connection {
    case .offline: "offline"
    case .syncing: "syncing"
    case .live: "live"
    }
  }

  /// `origin` as 8 lowercase hex digits (the page's client id).
  static func hex(_ origin: UInt32) -> String {
    let digits: [UInt8] = Array("0123456789abcdef".utf8)
    var bytes: [UInt8] = []
    for shift in stride(from: 28, through: 0, by: -4) { bytes.append(digits[Int((origin >> UInt32(shift)) & 0xf)]) }
    return String(decoding: bytes, as: UTF8.self)
  }
}
