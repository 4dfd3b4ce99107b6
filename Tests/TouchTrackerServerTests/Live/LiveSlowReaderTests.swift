import Foundation
import NIOConcurrencyHelpers
import Testing
import TouchTrackerCore
import TouchTrackerStore

@testable import TouchTrackerServer

/// A client that stops reading while others draw: the server holds at
/// most its queue's bound for it (presence coalesced to one message a
/// peer), then sends it `reset` instead of what it missed; once it reads
/// the drawing and says `hello` again it is back in step.
@Suite struct LiveSlowReaderTests {
  /// The room as `LiveConnection` wires it: an overflow makes the room
  /// reset the client. `fellBehind` reports each time the room answered.
  static func room(
    queuedMessages: Int, _ body: (SQLiteDrawingStore, LiveRoom, LiveOutbox, AsyncStream<Bool>) async throws -> Void
  ) async throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("touchtracker-slow-\(UUID()).sqlite").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    let store = try SQLiteDrawingStore(path: path)
    var limits = LiveLimits()
    limits.queuedMessages = queuedMessages
    let room = LiveRoom(name: try DrawingName("d"), store: store, limits: limits)
    let (answers, answered) = AsyncStream.makeStream(of: Bool.self)
    let slow = LiveOutbox(limits: limits) { outbox in
      Task { answered.yield(await room.fellBehind(outbox)) }
    }
    room.add(slow)
    try await room.join(slow, since: 0, by: "0000000c")
    #expect(await LiveRoomRetryTests.messages(slow) == [#"{"type":"welcome","revision":0}"#])
    try await body(store, room, slow, answers)
  }

  static func sender(_ room: LiveRoom, by: String) async throws -> LiveOutbox {
    let sender = LiveOutbox(limits: LiveLimits()) { _ in }
    room.add(sender)
    try await room.join(sender, since: 0, by: by)
    #expect(await LiveRoomRetryTests.messages(sender) == [#"{"type":"welcome","revision":0}"#])
    return sender
  }

  @Test func aReaderThatFallsBehindIsSentResetAndConvergesAfterHello() async throws {
    try await Self.room(queuedMessages: 10) { store, room, slow, answers in
      let sender = try await Self.sender(room, by: "0000000a")
      var answer = answers.makeAsyncIterator()
      for id in 1...30 {
        _ = try await room.append(
          ChangeBatch(changes: [LiveRoomRetryTests.line(UInt64(id))], key: "k\(id)"), from: sender)
        #expect(slow.queued.messages <= 10)
      }
      // It overflowed once (at the eleventh); the room answered with a reset.
      #expect(await answer.next() == true)
      let missed = await LiveRoomRetryTests.messages(slow)
      #expect(missed.count == 1)
      #expect(missed.first?.hasPrefix(#"{"type":"reset","revision":"#) == true, "\(missed)")
      // Unjoined: the changes after it are not sent (they would land on a
      // document the client is about to replace).
      _ = try await room.append(ChangeBatch(changes: [LiveRoomRetryTests.line(31)], key: "k31"), from: sender)
      #expect(slow.queued.messages == 0)
      // It reads the document and says hello from its revision: back in step.
      let revision = try #require(try await store.changes(of: room.name, since: 0)).revision
      #expect(revision == 31)
      try await room.join(slow, since: revision, by: "0000000c")
      #expect(await LiveRoomRetryTests.messages(slow) == [#"{"type":"welcome","revision":31}"#])
      _ = try await room.append(ChangeBatch(changes: [LiveRoomRetryTests.line(32)], key: "k32"), from: sender)
      let next = await LiveRoomRetryTests.messages(slow)
      #expect(next.count == 1)
      #expect(next.first?.hasPrefix(#"{"type":"changes","revision":32,"#) == true, "\(next)")
    }
  }

  /// 20 peers drawing 50 moves each to a reader that reads nothing: it is
  /// owed one presence a peer (the newest), not 1,000 messages.
  @Test func presenceToAReaderThatReadsNothingIsOneMessageAPeer() async throws {
    try await Self.room(queuedMessages: 100) { _, room, slow, _ in
      var peers: [LiveOutbox] = []
      for peer in 0..<20 { peers.append(try await Self.sender(room, by: String(format: "%08x", peer + 1))) }
      for move in 0..<50 {
        for peer in peers {
          let line = PresenceLine(
            begin: Point(x: Double(move), y: 0), end: Point(x: 1, y: 1), color: "#000000", width: 2)
          room.relay(presence: [line], from: peer)
        }
      }
      #expect(!slow.isBehind)
      let owed = await LiveRoomRetryTests.messages(slow)
      #expect(owed.count == 20)
      #expect(owed.allSatisfy { $0.contains(#""begin":{"x":49,"#) }, "\(owed.prefix(2))")
    }
  }

  /// Over a real socket: a client that stops reading while another sends
  /// ~15 MB (more than the kernel buffers for it and its queue) is, once
  /// it reads again, sent `reset`, not closed; after `hello` from the
  /// drawing's revision it gets what comes next.
  @Test func aSocketThatStopsReadingIsToldToReadTheDrawingAgain() async throws {
    let batches = 16
    try await Live.run(configure: {
      $0.liveLimits.queuedMessages = 20
      $0.liveLimits.queuedBytes = 64 * 1024
    }) { port, http in
      try await LiveTestClient.live(port: port, client: "0000000c", receiveBuffer: 4096, deadline: .seconds(300)) {
        slow in
        #expect(try await slow.message()["type"] as? String == "welcome")
        try await LiveTestClient.live(port: port, client: "0000000a", deadline: .seconds(300)) { sender in
          _ = try await sender.message(ofType: "welcome")
          // 16 batches of 10,000 lines, ~950 KB each.
          for batch in 0..<batches {
            let ids = Array((batch * 10_000 + 1)...(batch * 10_000 + 10_000))
            try await sender.send(Live.changes(key: "s\(batch)", Live.add(ids)))
            #expect(try await sender.message(ofType: "ack").message["revision"] as? Int == batch + 1)
          }
        }
        // It reads again: what the kernel held, then `reset` (never a close).
        let (reset, before) = try await slow.message(ofType: "reset")
        #expect(before.allSatisfy { $0["type"] as? String == "changes" })
        #expect(before.count < batches)
        // It reads the drawing and says hello from the drawing's revision.
        let revision = try await http.execute(uri: "/api/drawings/d", method: .get) {
          Int($0.headers[.xRevision] ?? "")
        }
        #expect(revision == batches)
        #expect((reset["revision"] as? Int).map { $0 <= batches } == true)
        try await slow.send(#"{"type":"hello","since":\#(revision ?? 0),"client":"0000000c"}"#)
        let (welcome, _) = try await slow.message(ofType: "welcome")
        #expect(welcome["revision"] as? Int == batches)
        try await Live.post(http, #"{"changes":[\#(Live.add([999_999]))]}"#, key: "after")
        let (next, _) = try await slow.message(ofType: "changes")
        #expect(next["revision"] as? Int == batches + 1)
        // `/metrics` counts it.
        let metrics = try await http.execute(uri: "/metrics", method: .get) { String(buffer: $0.body) }
        #expect(metrics.contains(#"touchtracker_live_slow_sockets_total{outcome="reset"} 1"#), "\(metrics)")
        #expect(metrics.contains(#"touchtracker_live_slow_sockets_total{outcome="closed"} 0"#), "\(metrics)")
      }
    }
  }
}
