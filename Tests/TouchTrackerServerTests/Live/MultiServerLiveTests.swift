import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import TouchTrackerCore
import TouchTrackerStore

@testable import TouchTrackerServer

/// Two servers on one PostgreSQL database, a live client on each: a change
/// acknowledged by one server reaches the clients of the other, and both
/// sockets carry every revision once, in the database's order.
///
/// Needs `TOUCHTRACKER_TEST_POSTGRES_URL` (Scripts/test.sh starts a server
/// and sets it); without it these tests are skipped, and say so. With it,
/// a server that cannot be reached fails them.
@Suite(
  .enabled(
    if: ProcessInfo.processInfo.environment[PostgresTesting.variable] != nil,
    "TOUCHTRACKER_TEST_POSTGRES_URL is not set: the multi-server tests need PostgreSQL (Scripts/test.sh starts one)"))
struct MultiServerLiveTests {
  /// How long a client's socket may stay open: 60 round trips through two
  /// servers and PostgreSQL took over 30 s (the clients' default) on a CI
  /// machine busy with builds, and the cut socket failed the test with
  /// "I/O on closed channel". Still bounded, so a hang fails.
  static let deadline = Duration.seconds(150)

  /// Runs `body` with two live servers on one fresh database.
  static func twoServers(
    _ body:
      @escaping @Sendable (
        _ a: (port: Int, http: any TestClientProtocol), _ b: (port: Int, http: any TestClientProtocol)
      )
      async throws -> Void
  ) async throws {
    // The test's HTTP clients keep one connection each, idle while the
    // sockets do their round trips; past the servers' keep-alive idle time
    // (10 s, `ConnectionTimeouts.header`) a server closed it and the next
    // request failed with "I/O on closed channel" on a busy CI machine. The
    // same for the database's answer: 60 appends through two servers took
    // over the 2 s `databaseTimeout` on a busy CI machine (503, the socket closed).
    try await PostgresTesting.withDatabase { url in
      try await TestServer.run(
        .live,
        configure: {
          $0.databasePath = url; $0.timeouts.header = Self.deadline; $0.databaseTimeout = Self.deadline
        }
      ) { _, httpA in
        try await TestServer.run(
          .live,
          configure: {
            $0.databasePath = url; $0.timeouts.header = Self.deadline; $0.databaseTimeout = Self.deadline
          }
        ) { _, httpB in
          try await body((try #require(httpA.port), httpA), (try #require(httpB.port), httpB))
        }
      }
    }
  }

  /// Takes `count` messages from `client` into `replica`. A socket that
  /// ends first fails naming what the replica had: which revision or `ack`
  /// never came.
  static func take(_ count: Int, from client: LiveTestClient, into replica: inout LiveReplica, _ name: String)
    async throws
  {
    for _ in 0..<count {
      do {
        try replica.receive(try await client.message())
      } catch {
        let missing = Set(1...count).subtracting(replica.revisions).sorted()
        Issue.record(
          "\(name): \(error) after revisions \(replica.revisions); none of \(missing); unacknowledged \(replica.pending.keys.sorted())"
        )
        throw error
      }
    }
  }

  @Test func eachServersClientsGetTheOthersChangesInOneOrder() async throws {
    try await Self.twoServers { serverA, serverB in
      try await LiveTestClient.live(port: serverA.port, client: "0000000a", deadline: Self.deadline) { a in
        _ = try await a.message(ofType: "welcome")
        try await LiveTestClient.live(port: serverB.port, client: "0000000b", deadline: Self.deadline) { b in
          _ = try await b.message(ofType: "welcome")
          let count = 30
          for index in 0..<count {
            try await a.send(Live.changes(key: "a\(index)", Live.add([1000 + index])))
            try await b.send(Live.changes(key: "b\(index)", Live.add([2000 + index], x: 5)))
          }
          var replicas = [LiveReplica(), LiveReplica()]
          for index in 0..<count {
            replicas[0].pending["a\(index)"] = [try LiveSyncTests.change(Live.add([1000 + index]))]
            replicas[1].pending["b\(index)"] = [try LiveSyncTests.change(Live.add([2000 + index], x: 5))]
          }
          try await Self.take(2 * count, from: a, into: &replicas[0], "a (server A)")
          try await Self.take(2 * count, from: b, into: &replicas[1], "b (server B)")
          let storedA = try await Live.document(serverA.http)
          let storedB = try await Live.document(serverB.http)
          #expect(storedA == storedB)
          for replica in replicas {
            #expect(replica.revisions == Array(1...(2 * count)))
            #expect(replica.pending.isEmpty)
            #expect(replica.document == storedA)
          }
        }
      }
    }
  }

  /// Lines in progress go between the servers too: a client on one server
  /// sees another's on the other server draw, lift, and leave.
  @Test func eachServersClientsSeeTheOthersLinesInProgress() async throws {
    let line = ##"{"begin":{"x":1,"y":2},"end":{"x":30,"y":40},"color":"#336699","width":3}"##
    try await Self.twoServers { serverA, serverB in
      try await LiveTestClient.live(port: serverB.port, client: "0000000b", deadline: Self.deadline) { b in
        _ = try await b.message(ofType: "welcome")
        try await LiveTestClient.live(port: serverA.port, client: "0000000a", deadline: Self.deadline) { a in
          _ = try await a.message(ofType: "welcome")
          try await a.send(#"{"type":"presence","lines":[\#(line)]}"#)
          let drawing = try await b.message(ofType: "presence").message
          #expect(drawing["by"] as? String == "0000000a")
          #expect((drawing["lines"] as? [[String: Any]])?.count == 1)
          let begin = (drawing["lines"] as? [[String: Any]])?.first?["begin"] as? [String: Any]
          #expect(begin?["x"] as? Int == 1 && begin?["y"] as? Int == 2)
          try await a.send(#"{"type":"presence","lines":[]}"#)
          let lifted = try await b.message(ofType: "presence").message
          #expect(lifted["by"] as? String == "0000000a")
          #expect((lifted["lines"] as? [Any])?.isEmpty == true)
        }
        // A's socket closed: B's client is told it left.
        let left = try await b.message(ofType: "leave").message
        #expect(left["by"] as? String == "0000000a")
      }
    }
  }

  @Test func changesPostedToOneServerAndItsResetsReachTheOthersClients() async throws {
    try await Self.twoServers { serverA, serverB in
      try await LiveTestClient.live(port: serverB.port, client: "0000000b", deadline: Self.deadline) { b in
        _ = try await b.message(ofType: "welcome")
        try await Live.post(serverA.http, #"{"changes":[\#(Live.add([7]))]}"#, key: "k1")
        let changes = try await b.message()
        #expect(changes["type"] as? String == "changes")
        #expect(changes["revision"] as? Int == 1)
        #expect(changes["key"] as? String == "k1")
        try await serverA.http.execute(
          uri: "/api/drawings/d", method: .put, body: ByteBuffer(string: documentText(lines: 2)))
        // Each received value bound first, so that a failure shows what came instead.
        let replaced = try await b.receive()
        #expect(replaced == .text(#"{"type":"reset","revision":2}"#))
        try await b.send(#"{"type":"hello","since":2,"client":"0000000b"}"#)
        let welcome = try await b.receive()
        #expect(welcome == .text(#"{"type":"welcome","revision":2}"#))
        try await serverA.http.execute(uri: "/api/drawings/d", method: .delete) { #expect($0.status == .noContent) }
        let deleted = try await b.receive()
        #expect(deleted == .text(#"{"type":"reset","revision":0}"#))
      }
    }
  }

  /// A rename on one server: the other server's clients of the old name
  /// are told the new one (and let go), as that server's own would be.
  @Test func aRenameOnOneServerReachesTheOthersClients() async throws {
    try await Self.twoServers { serverA, serverB in
      try await Live.post(serverA.http, #"{"changes":[\#(Live.add([7]))]}"#)
      try await LiveTestClient.live(port: serverB.port, since: 1, client: "0000000b", deadline: Self.deadline) { b in
        #expect(try await b.receive() == .text(#"{"type":"welcome","revision":1}"#))
        try await serverA.http.execute(
          uri: "/api/drawings/d/rename", method: .post, body: ByteBuffer(string: #"{"name":"e"}"#)
        ) { #expect($0.status == .ok) }
        let (messages, close) = try await b.untilClosed()
        #expect(messages == [#"{"type":"renamed","name":"e","shift":0}"#])
        #expect(close == .close(code: 1000, reason: ""))
      }
    }
  }
}

/// The PostgreSQL server of the tests.
enum PostgresTesting {
  static let variable = "TOUCHTRACKER_TEST_POSTGRES_URL"

  /// Runs `body` with the URL of a new, empty database on the test server,
  /// dropped afterwards.
  static func withDatabase(_ body: (String) async throws -> Void) async throws {
    let text = try #require(ProcessInfo.processInfo.environment[variable], "\(variable) is not set")
    let server = try PostgresURL(text)
    let name = "tt_test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
    try await server.createDatabase(name)
    do {
      try await body(server.with(database: name).text)
      try await server.dropDatabase(name)
    } catch {
      try? await server.dropDatabase(name)
      throw error
    }
  }
}
