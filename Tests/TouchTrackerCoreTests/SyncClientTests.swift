import Testing

@testable import TouchTrackerCore

extension PageHost {
  /// The text of an answer `length` long at `output`.
  func output(of length: Int) -> String {
    String(decoding: output.elements.prefix(max(length, 0)), as: UTF8.self)
  }
}

/// The sync client's state machine, event by event: what it leaves its host
/// to do (docs/DESIGN.md, "Sync").
@Suite struct SyncClientTests {
  static let line = Change.add(
    lines: [Line(id: ShapeID(rawValue: 5), begin: Point(x: 0, y: 0), end: Point(x: 1, y: 1))], circles: [], at: nil)
  static let other = Change.deleteLine(ShapeID(rawValue: 9))

  private func live(revision: Int = 3) -> SyncClient {
    var client = SyncClient(client: "0000000a")
    client.opened(revision: revision)
    client.socketOpened()
    client.welcomed(revision: revision)
    _ = client.takeEffects()
    return client
  }

  @Test func aChangeIsKeptAtOnceAndSentUnderAKeyOnFlush() {
    var client = live()
    client.took([Self.line])
    #expect(client.takeEffects() == [.keep(.own([Self.line]))])
    #expect(client.pending == 1)
    client.flush()
    #expect(
      client.takeEffects() == [
        .keep(.batch(key: "0000000a-1", count: 1)), .send(key: "0000000a-1", changes: [Self.line]),
      ])
    client.acknowledged(key: "0000000a-1", revision: 4)
    #expect(client.takeEffects() == [.confirm(1), .keep(.acknowledged(key: "0000000a-1", revision: 4))])
    #expect(client.pending == 0 && client.revision == 4)
  }

  @Test func offlineNothingIsSentAndAReconnectResendsTheSameKey() {
    var client = live()
    client.took([Self.line])
    client.flush()
    _ = client.takeEffects()
    client.socketClosed()
    client.flush()
    #expect(client.takeEffects().isEmpty, "nothing goes out while offline")
    client.socketOpened()
    #expect(client.takeEffects() == [.hello(since: 3)])
    client.welcomed(revision: 5)
    #expect(client.takeEffects() == [.send(key: "0000000a-1", changes: [Self.line])], "the same batch, the same key")
  }

  @Test func othersChangesGoInBeneathAndTheirOwnBatchFromTheBacklogIsItsAcknowledgement() {
    var client = live()
    client.took([Self.line])
    client.flush()
    _ = client.takeEffects()
    client.handle(.changes(revision: 4, key: "x", changes: [Self.other]))
    #expect(client.takeEffects() == [.receive([Self.other]), .keep(.theirs(revision: 4, changes: [Self.other]))])
    client.handle(.changes(revision: 5, key: "0000000a-1", changes: [Self.line]))
    #expect(client.takeEffects().first == .confirm(1))
    client.handle(.changes(revision: 5, key: nil, changes: [Self.other]))
    #expect(client.takeEffects().isEmpty, "a revision had already is not applied twice")
  }

  @Test func aReloadRestoresWhatWaitsWithItsKeysAndFoldsTheRest() {
    let journal: [SyncJournal.Entry] = [
      .own([Self.line]), .batch(key: "old-1", count: 1), .theirs(revision: 4, changes: [Self.other]),
      .own([Self.other]),
    ]
    var offline = SyncClient(client: "0000000b")
    offline.restore(journal, baseRevision: 3)
    #expect(offline.takeEffects() == [.receive([Self.other]), .restore([Self.line, Self.other])])
    #expect(offline.revision == 4 && offline.pending == 2 && offline.batches.map(\.key) == ["old-1"])

    var online = SyncClient(client: "0000000b")
    online.restore(journal, baseRevision: 3, serverRevision: 9)
    #expect(online.takeEffects() == [.restore([Self.line, Self.other]), .rebase], "the server's drawing has theirs")
    online.socketOpened()
    online.welcomed(revision: 9)
    #expect(online.takeEffects() == [.hello(since: 9), .send(key: "old-1", changes: [Self.line])])
    // Appended before revision 9 (its answer was lost): the drawing has it, so it is taken back.
    online.acknowledged(key: "old-1", revision: 6)
    #expect(online.takeEffects().first == .withdraw(1))
    #expect(online.revision == 9)
  }

  @Test func aReplacedDrawingGetsWhatWaitsOnTopAndSaysSo() {
    var client = live()
    client.took([Self.line])
    client.handle(.reset(revision: 7))
    #expect(client.takeEffects().last == .fetchDocument)
    client.replaced(revision: 7)
    #expect(
      client.takeEffects() == [.restore([Self.line]), .replaced(kept: 1), .rebase, .hello(since: 7)])
  }

  @Test func overHTTPAnAnswerWithOthersBeforeItReadsThemFirst() {
    var client = SyncClient(client: "0000000a", overSocket: false)
    client.opened(revision: 3)
    client.connected()
    client.took([Self.line])
    client.flush()
    _ = client.takeEffects()
    client.answered(key: "0000000a-1", revision: 6)
    #expect(client.takeEffects() == [.pull(since: 3)])
    client.pulled([(4, Self.other), (5, Self.other), (6, Self.line)], since: 3)
    let effects = client.takeEffects()
    #expect(effects.first == .receive([Self.other, Self.other]))
    #expect(effects.contains(.confirm(1)))
    #expect(client.revision == 6 && client.pending == 0)
  }

  @Test func theJournalReadsBackWhatWasWritten() throws {
    let entries: [SyncJournal.Entry] = [
      .own([Self.line]), .batch(key: "k-1", count: 1), .theirs(revision: 4, changes: [Self.other]),
      .acknowledged(key: "k-1", revision: 5),
    ]
    var text: [UInt8] = Array(#"{"entries":["#.utf8)
    for (index, entry) in entries.enumerated() {
      if index > 0 { text.append(UInt8(ascii: ",")) }
      text += SyncJournal.encode(entry)
    }
    text += Array("]}".utf8)
    #expect(try SyncJournal.decode(bytes: text) == entries)
    #expect(throws: FormatError("Expected a whole number >= 0 at entries[0].revision")) {
      try SyncJournal.decode(bytes: Array(#"{"entries":[{"ack":"k","revision":-1}]}"#.utf8))
    }
  }
}
