/// Sync as the page drives it (`Sync/`, `Web/sync/`): the page hands over
/// what happened (a frame's changes, a socket's message, a request's
/// answer), the drawing's part of the effects is carried out here at once,
/// and the rest is written for the page as
/// `{"revision": R, "pending": N, "connection": "live", "socket": true,
/// "journal": J, "effects": [...]}` (J: the entries this browser's copy
/// holds after its base once every `keep` is written)
/// (docs/DESIGN.md, "Sync").
extension PageHost {
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
