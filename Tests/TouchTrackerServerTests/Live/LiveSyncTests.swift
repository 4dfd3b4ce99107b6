import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import TouchTrackerCore
import TouchTrackerStore

@testable import TouchTrackerServer

/// `GET /api/drawings/NAME/live` with well-behaved clients: what each
/// socket carries, in what order, and that everyone ends with GET's bytes.
@Suite struct LiveSyncTests {
  @Test func twoClientsDrawingAtOnceConvergeToTheStoredDocumentByteForByte() async throws {
    try await Live.run { port, http in
      try await LiveTestClient.live(port: port, client: "0000000a") { a in
        _ = try await a.message(ofType: "welcome")
        try await LiveTestClient.live(port: port, client: "0000000b") { b in
          _ = try await b.message(ofType: "welcome")
          var replicaA = LiveReplica()
          var replicaB = LiveReplica()
          let sentA = [
            Live.changes(key: "a1", Live.add([1])), Live.changes(key: "a2", Live.add([2], x: 7)),
            Live.changes(key: "a3", #"{"op":"move","line":3,"begin":{"x":0,"y":0},"end":{"x":1,"y":1}}"#),
          ]
          let sentB = [
            Live.changes(key: "b1", Live.add([3])), Live.changes(key: "b2", #"{"op":"delete","line":1}"#),
            Live.changes(key: "b3", Live.add([4, 5])),
          ]
          for (key, text) in zip(["a1", "a2", "a3"], sentA) { replicaA.pending[key] = try Self.changes(in: text) }
          for (key, text) in zip(["b1", "b2", "b3"], sentB) { replicaB.pending[key] = try Self.changes(in: text) }
          // Interleaved without waiting for answers: the server orders them.
          for (textA, textB) in zip(sentA, sentB) {
            try await a.send(textA)
            try await b.send(textB)
          }
          // 6 batches: each socket carries 3 acks and 3 batches of the other.
          for _ in 0..<6 { try replicaA.receive(try await a.message()) }
          for _ in 0..<6 { try replicaB.receive(try await b.message()) }
          #expect(replicaA.pending.isEmpty && replicaB.pending.isEmpty)
          let stored = try await Live.document(http)
          #expect(replicaA.document == stored)
          #expect(replicaB.document == stored)
          #expect(replicaA.revisions == Array(1...6))
          #expect(replicaB.revisions == Array(1...6))
        }
      }
    }
  }

  /// Many batches from two clients at once: on each socket every revision
  /// arrives once, in order, the client's own as `ack`s between the others.
  @Test func eachSocketCarriesEveryRevisionOnceInOrderWithAcksInPlace() async throws {
    try await Live.run { port, http in
      try await LiveTestClient.live(port: port, client: "0000000a") { a in
        _ = try await a.message(ofType: "welcome")
        try await LiveTestClient.live(port: port, client: "0000000b") { b in
          _ = try await b.message(ofType: "welcome")
          let count = 40
          for index in 0..<count {
            try await a.send(Live.changes(key: "a\(index)", Live.add([1000 + index])))
            try await b.send(Live.changes(key: "b\(index)", Live.add([2000 + index], x: 5)))
          }
          var replicas = [LiveReplica(), LiveReplica()]
          for index in 0..<count {
            replicas[0].pending["a\(index)"] = [try Self.change(Live.add([1000 + index]))]
            replicas[1].pending["b\(index)"] = [try Self.change(Live.add([2000 + index], x: 5))]
          }
          for _ in 0..<(2 * count) { try replicas[0].receive(try await a.message()) }
          for _ in 0..<(2 * count) { try replicas[1].receive(try await b.message()) }
          try await Self.expectConverged(replicas, through: 2 * count, http)
        }
      }
    }
  }

  /// Every replica saw revisions 1...`revision` once, in order, got every
  /// ack, and holds GET's document.
  private static func expectConverged(
    _ replicas: [LiveReplica], through revision: Int, _ http: any TestClientProtocol
  ) async throws {
    let stored = try await Live.document(http)
    for replica in replicas {
      #expect(replica.revisions == Array(1...revision))
      #expect(replica.pending.isEmpty)
      #expect(replica.document == stored)
    }
  }

  /// A client that says `"batches": true` may get several messages in one
  /// frame (a JSON array of them, when several wait for it); it still gets
  /// every revision once, in order, with its acks in place, and ends with
  /// GET's bytes. A client that does not say it never gets an array
  /// (`message()` fails on one): pages loaded before batches still work.
  @Test func aClientTakingBatchesGetsEveryRevisionInOrderAndOthersGetNoArrays() async throws {
    try await Live.run { port, http in
      try await LiveTestClient.live(port: port, client: "0000000a", batches: true) { a in
        #expect(try await a.messages().first?["type"] as? String == "welcome")
        try await LiveTestClient.live(port: port, client: "0000000b") { b in
          _ = try await b.message(ofType: "welcome")
          let count = 60
          var replicas = [LiveReplica(), LiveReplica()]
          for index in 0..<count {
            try await a.send(Live.changes(key: "a\(index)", Live.add([1000 + index])))
            try await b.send(Live.changes(key: "b\(index)", Live.add([2000 + index], x: 5)))
            replicas[0].pending["a\(index)"] = [try Self.change(Live.add([1000 + index]))]
            replicas[1].pending["b\(index)"] = [try Self.change(Live.add([2000 + index], x: 5))]
          }
          var received = 0
          while received < 2 * count {
            let messages = try await a.messages()
            for message in messages { try replicas[0].receive(message) }
            received += messages.count
          }
          for _ in 0..<(2 * count) { try replicas[1].receive(try await b.message()) }
          try await Self.expectConverged(replicas, through: 2 * count, http)
        }
      }
    }
  }

  @Test func helloSinceARevisionGetsTheLaterBatchesByKeyThenWelcome() async throws {
    try await Live.run { port, http in
      try await Live.post(http, #"{"changes":[\#(Live.add([1])),\#(Live.add([2]))]}"#, key: "k1")
      try await Live.post(http, #"{"changes":[\#(Live.add([3])),{"op":"delete","line":1}]}"#)
      let stored = try [[2], [3]].map { ids in
        String(decoding: ChangeCoder.encode(try Self.change(Live.add(ids))), as: UTF8.self)
      }
      try await LiveTestClient.live(port: port, since: 1) { client in
        var received: [LiveTestClient.Received] = []
        for _ in 0..<4 { received.append(try await client.receive()) }
        #expect(
          received == [
            .text(#"{"type":"changes","revision":2,"key":"k1","changes":[\#(stored[0])]}"#),
            .text(#"{"type":"changes","revision":3,"changes":[\#(stored[1])]}"#),
            .text(#"{"type":"changes","revision":4,"changes":[{"op":"delete","line":1}]}"#),
            .text(#"{"type":"welcome","revision":4}"#),
          ])
      }
    }
  }

  @Test func helloOnADrawingThatDoesNotExistIsWelcomedAtRevisionZero() async throws {
    try await Live.run { port, _ in
      try await LiveTestClient.live(port: port, drawing: "new") { client in
        let received = try await client.receive()
        #expect(received == .text(#"{"type":"welcome","revision":0}"#))
      }
    }
  }

  /// A client that was away while its drawing was renamed comes back to
  /// the old name: it is told the new one (and let go), as the clients
  /// connected then were.
  @Test func helloOnTheNameARenameLeftIsToldTheNewName() async throws {
    try await Live.run { port, http in
      try await Live.post(http, #"{"changes":[\#(Live.add([7]))]}"#)
      try await http.execute(
        uri: "/api/drawings/d/rename", method: .post, body: ByteBuffer(string: #"{"name":"e"}"#)
      ) { #expect($0.status == .ok) }
      try await LiveTestClient.live(port: port, since: 1, client: "0000000b") { client in
        let (messages, close) = try await client.untilClosed()
        #expect(messages == [#"{"type":"renamed","name":"e","shift":0}"#])
        #expect(close == .close(code: 1000, reason: ""))
      }
    }
  }

  @Test(arguments: [
    (5, "ahead of the drawing"), (0, "replaced by a PUT"),
  ])
  func helloSinceARevisionTheLogNoLongerReachesGetsReset(since: Int, why: String) async throws {
    try await Live.run { port, http in
      try await http.execute(uri: "/api/drawings/d", method: .put, body: ByteBuffer(string: documentText(lines: 1)))
      try await Live.post(http, #"{"changes":[\#(Live.add([9]))]}"#)
      try await LiveTestClient.live(port: port, since: since) { client in
        #expect(try await client.receive() == .text(#"{"type":"reset","revision":2}"#), "\(why)")
        try await client.send(#"{"type":"hello","since":2,"client":"0000000a"}"#)
        #expect(try await client.receive() == .text(#"{"type":"welcome","revision":2}"#))
      }
    }
  }

  /// A `GET` of the document folds the drawing's log into its snapshot;
  /// a client one revision behind that reconnects after it still gets the
  /// change it missed, not `reset` (and a second read of the whole document).
  @Test func helloOneRevisionBehindAfterAGetOfTheDocumentGetsTheChangeNotReset() async throws {
    try await Live.run { server, port, http in
      try await Live.post(http, #"{"changes":[\#(Live.add([1]))]}"#)
      try await Live.post(http, #"{"changes":[\#(Live.add([2]))]}"#)
      _ = try await Live.document(http)
      try await waitForSnapshot(at: 2, of: "d", in: server.databasePath)
      try await LiveTestClient.live(port: port, since: 1) { client in
        let stored = String(decoding: ChangeCoder.encode(try Self.change(Live.add([2]))), as: UTF8.self)
        #expect(try await client.receive() == .text(#"{"type":"changes","revision":2,"changes":[\#(stored)]}"#))
        #expect(try await client.receive() == .text(#"{"type":"welcome","revision":2}"#))
      }
    }
  }

  @Test func putAndDeleteOfTheDrawingSendResetAndNothingMoreUntilHello() async throws {
    try await Live.run { port, http in
      try await LiveTestClient.live(port: port) { client in
        _ = try await client.message(ofType: "welcome")
        try await http.execute(uri: "/api/drawings/d", method: .put, body: ByteBuffer(string: documentText(lines: 2)))
        #expect(try await client.receive() == .text(#"{"type":"reset","revision":1}"#))
        // Not sent: the client reads the document (which has it) and says hello.
        try await Live.post(http, #"{"changes":[\#(Live.add([7]))]}"#)
        try await client.send(#"{"type":"hello","since":2,"client":"0000000a"}"#)
        #expect(try await client.receive() == .text(#"{"type":"welcome","revision":2}"#))
        try await http.execute(uri: "/api/drawings/d", method: .delete) { #expect($0.status == .noContent) }
        #expect(try await client.receive() == .text(#"{"type":"reset","revision":0}"#))
      }
    }
  }

  @Test func aKeySentAgainIsAcknowledgedAgainAndAppendedOnce() async throws {
    try await Live.run { port, http in
      try await LiveTestClient.live(port: port, client: "0000000a") { a in
        _ = try await a.message(ofType: "welcome")
        try await LiveTestClient.live(port: port, client: "0000000b") { b in
          _ = try await b.message(ofType: "welcome")
          try await a.send(Live.changes(key: "same", Live.add([1])))
          #expect(try await a.receive() == .text(#"{"type":"ack","key":"same","revision":1}"#))
          try await a.send(Live.changes(key: "same", Live.add([1])))
          #expect(try await a.receive() == .text(#"{"type":"ack","key":"same","revision":1}"#))
          try await a.send(Live.changes(key: "next", Live.add([2])))
          #expect(try await a.receive() == .text(#"{"type":"ack","key":"next","revision":2}"#))
          // b sees each batch once, with its key and who sent it.
          let first = try await b.message()
          #expect(first["revision"] as? Int == 1 && first["key"] as? String == "same")
          #expect(first["by"] as? String == "0000000a")
          #expect(try await b.message()["revision"] as? Int == 2)
        }
      }
      #expect(try await Live.document(http).components(separatedBy: #""id""#).count == 3)
    }
  }

  @Test func changesPostedOverHTTPReachEverySocketWithTheirKeyAndNoSender() async throws {
    try await Live.run { port, http in
      try await LiveTestClient.live(port: port) { client in
        _ = try await client.message(ofType: "welcome")
        #expect(try await Live.post(http, #"{"changes":[{"op":"clear"}]}"#, key: "p1") == #"{"revision":1}"#)
        #expect(
          try await client.receive() == .text(#"{"type":"changes","revision":1,"key":"p1","changes":[{"op":"clear"}]}"#)
        )
        try await Live.post(http, #"{"changes":[{"op":"clear"},{"op":"clear"}]}"#)
        #expect(
          try await client.receive()
            == .text(#"{"type":"changes","revision":3,"changes":[{"op":"clear"},{"op":"clear"}]}"#))
      }
    }
  }

  @Test func presenceIsRelayedToTheOthersAndLeaveFollowsADisconnect() async throws {
    try await Live.run { port, _ in
      try await LiveTestClient.live(port: port, client: "0000000b") { b in
        _ = try await b.message(ofType: "welcome")
        try await LiveTestClient.live(port: port, client: "0000000A") { a in
          _ = try await a.message(ofType: "welcome")
          try await a.send(
            ##"{"type":"presence","lines":[{"begin":{"x":1.5,"y":2},"end":{"x":3,"y":4},"color":"#FF0000","width":2,"extra":1}]}"##
          )
          #expect(
            try await b.receive()
              == .text(
                ##"{"type":"presence","by":"0000000a","lines":[{"begin":{"x":1.5,"y":2},"end":{"x":3,"y":4},"color":"#ff0000","width":2}]}"##
              ))
          try await a.send(#"{"type":"presence","lines":[]}"#)
          #expect(try await b.receive() == .text(#"{"type":"presence","by":"0000000a","lines":[]}"#))
        }
        #expect(try await b.receive() == .text(#"{"type":"leave","by":"0000000a"}"#))
      }
    }
  }

  /// The guard's header timeout must not close a socket. It is short here,
  /// but the client must send its upgrade within it after connecting: 1 s
  /// was lost on a loaded 2-core machine whose pool threads stalled (eight
  /// tests at once, some of them seconds of CPU each); 4 s is not.
  @Test func aLiveSocketOutlivesTheHTTPHeaderTimeout() async throws {
    try await Live.run(configure: { $0.timeouts.header = .seconds(4) }) { port, http in
      try await LiveTestClient.live(port: port) { client in
        _ = try await client.message(ofType: "welcome")
        try await Task.sleep(for: .milliseconds(4500))  // Past the timeout: nothing must happen.
        try await client.send(Live.changes(key: "late", Live.add([1])))
        #expect(try await client.receive() == .text(#"{"type":"ack","key":"late","revision":1}"#))
      }
    }
  }

  static func changes(in message: String) throws -> [Change] {
    try ChangeCodec.decodeList(Data(message.utf8))
  }

  static func change(_ text: String) throws -> Change {
    try ChangeCoder.decode(bytes: Array(text.utf8))
  }
}
