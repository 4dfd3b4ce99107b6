import Foundation
import Testing

@testable import TouchTrackerServer

/// Writers of a large room are paced (`LiveLimits.pace`): after a frame a
/// client's writer waits before it takes the next, so what came meanwhile
/// goes in one frame; a small room's writers write at once.
@Suite struct LivePacingTests {
  /// Rows 8 and 12 of BENCHMARKS.md (2 and 100 clients) are not paced; the
  /// pause grows with the room, within its least and most.
  @Test func onlyRoomsOfPacedMembersArePacedAndThePauseGrowsWithinItsBounds() {
    let limits = LiveLimits()
    #expect(limits.pacedMembers == 200)
    for members in [0, 1, 2, 100, 199] { #expect(limits.pace(members: members) == nil, "\(members)") }
    #expect(limits.pace(members: 200) == .milliseconds(10))
    #expect(limits.pace(members: 400) == .milliseconds(10))
    #expect(limits.pace(members: 600) == .milliseconds(15))
    #expect(limits.pace(members: 1000) == .milliseconds(25))
    #expect(limits.pace(members: 10_000) == .milliseconds(25))
  }

  /// A room of 2 with `pacedMembers` 2 and a pause of 10 s (the sockets
  /// live up to 120 s, for a loaded machine): the watcher's
  /// first change goes at once, and the ones its peer sends while its writer
  /// waits reach it together, in one frame (it said `"batches": true`);
  /// it still gets every revision once, in order, and holds GET's document.
  /// (The peer sends its five changes at once: the server stores them in
  /// far less than the pause, so they are queued when the writer wakes.)
  @Test func aWatcherInAPacedRoomGetsWhatCameDuringThePauseInOneFrameAndConverges() async throws {
    try await Live.run(configure: paced(from: 2, pause: .seconds(10))) { port, http in
      try await LiveTestClient.live(port: port, client: "0000000a", batches: true, deadline: .seconds(120)) { watcher in
        #expect(try await watcher.messages().first?["type"] as? String == "welcome")
        try await LiveTestClient.live(port: port, client: "0000000b", deadline: .seconds(120)) { peer in
          _ = try await peer.message(ofType: "welcome")
          let count = 5
          var replica = LiveReplica()
          for index in 0..<count { try await peer.send(Live.changes(key: "b\(index)", Live.add([2000 + index]))) }
          var frames: [Int] = []
          while replica.revisions.count < count {
            let messages = try await watcher.messages()
            for message in messages { try replica.receive(message) }
            frames.append(messages.count)
          }
          #expect(frames.count <= 2, "frames of \(frames) messages")
          #expect(frames.contains { $0 > 1 }, "frames of \(frames) messages")
          #expect(replica.revisions == Array(1...count))
          for _ in 0..<count { _ = try await peer.message(ofType: "ack") }
          #expect(replica.document == (try await Live.document(http)))
        }
      }
    }
  }

  /// A room smaller than `pacedMembers` writes at once: with a pause of
  /// 600 s, were it paced, the watcher would get its second change only
  /// after the clients' 30 s deadline.
  @Test func aRoomSmallerThanPacedMembersIsNotPaced() async throws {
    try await Live.run(configure: paced(from: 3, pause: .seconds(600))) { port, http in
      try await LiveTestClient.live(port: port, client: "0000000a") { watcher in
        _ = try await watcher.message(ofType: "welcome")
        try await LiveTestClient.live(port: port, client: "0000000b") { peer in
          _ = try await peer.message(ofType: "welcome")
          var replica = LiveReplica()
          for index in 0..<3 {
            try await peer.send(Live.changes(key: "b\(index)", Live.add([2000 + index])))
            _ = try await peer.message(ofType: "ack")
            try replica.receive(try await watcher.message())
          }
          #expect(replica.revisions == [1, 2, 3])
          #expect(replica.document == (try await Live.document(http)))
        }
      }
    }
  }

  /// A server whose rooms of `members` or more pace their writers by `pause`.
  private func paced(from members: Int, pause: Duration) -> @Sendable (inout ServerConfiguration) -> Void {
    { configuration in
      configuration.liveLimits.pacedMembers = members
      configuration.liveLimits.paceLeast = pause
      configuration.liveLimits.paceMost = pause
    }
  }
}
