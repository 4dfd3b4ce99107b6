import Foundation
import Testing
import TouchTrackerCore
import TouchTrackerStore

@testable import TouchTrackerServer

/// The live protocol's values on their own: reading client messages,
/// writing server ones, grouping the backlog, the rate limit.
@Suite struct LiveMessageTests {
  @Test func helloChangesAndPresenceAreRead() throws {
    #expect(
      try ClientMessage.decode(Array(#"{"type":"hello","since":3,"client":"00AB00cd","x":1}"#.utf8))
        == .hello(since: 3, client: "00ab00cd"))
    let changes = try ClientMessage.decode(Array(Live.changes(key: "k-1", Live.add([4]), #"{"op":"clear"}"#).utf8))
    guard case .changes(let key, let list) = changes else { throw LiveReplica.Failure(description: "\(changes)") }
    #expect(key == "k-1")
    #expect(list.count == 2 && list[1] == .clear)
    #expect(try ClientMessage.decode(Array(#"{"type":"presence","lines":[]}"#.utf8)) == .presence([]))
  }

  @Test func helloSaysWhetherTheClientTakesSeveralMessagesInOneFrame() throws {
    #expect(
      try ClientMessage.decode(Array(#"{"type":"hello","since":0,"client":"0000000a","batches":true}"#.utf8))
        == .hello(since: 0, client: "0000000a", batches: true))
    #expect(
      try ClientMessage.decode(Array(#"{"type":"hello","since":0,"client":"0000000a","batches":false}"#.utf8))
        == .hello(since: 0, client: "0000000a"))
  }

  /// What is queued for a client that takes batches: runs of messages as
  /// JSON arrays of at most `batchBytes`, a message alone (or too big to
  /// share a frame) as itself, and nothing lost or reordered.
  @Test func queuedMessagesGoAsArraysOfThemUpToTheFrameLimit() throws {
    let acks = (0..<5).map { ServerMessage.ack(key: "k\($0)", revision: $0 + 1).text }
    #expect(LiveConnection.frames([acks[0]]) == [acks[0]])
    #expect(LiveConnection.frames(acks) == ["[" + acks.joined(separator: ",") + "]"])

    let third = String(repeating: "x", count: LiveConnection.batchBytes / 3)
    let texts =
      (0..<7).map { ServerMessage.error("\($0)\(third)").text }
      + [ServerMessage.error(String(repeating: "y", count: LiveConnection.batchBytes + 10)).text] + acks
    let frames = LiveConnection.frames(texts)
    var flattened: [Any] = []
    for frame in frames {
      let value = try JSONSerialization.jsonObject(with: Data(frame.utf8))
      if let array = value as? [Any] {
        #expect(array.count > 1 && frame.utf8.count <= LiveConnection.batchBytes + 1, "\(array.count) in one frame")
        flattened += array
      } else {
        flattened.append(value)
      }
    }
    let expected = try texts.map { try JSONSerialization.jsonObject(with: Data($0.utf8)) }
    #expect((flattened as NSArray).isEqual(to: expected))
    // Three pairs of the long errors, the seventh alone, the too-big one alone, the acks.
    #expect(frames.count == 6, "\(frames.count) frames")
  }

  /// Every server message is one JSON object with `type` first, and reads
  /// back as what was written.
  @Test(arguments: [
    ServerMessage.changes(revision: 3, key: "k", by: "0000000a", changes: [#"{"op":"clear"}"#]),
    .changes(revision: 3, key: nil, by: nil, changes: []), .ack(key: "k", revision: 2), .welcome(revision: 0),
    .reset(revision: 7), .presence(by: "0000000a", lines: "[]"), .leave(by: "0000000a"),
    .error("Quote \" backslash \\ newline \n control \u{1} 'done'"),
  ])
  func serverMessagesAreJSONObjectsWithTheTypeFirst(message: ServerMessage) throws {
    #expect(message.text.hasPrefix(#"{"type":""#))
    let object = try #require(try JSONSerialization.jsonObject(with: Data(message.text.utf8)) as? [String: Any])
    if case .error(let text) = message { #expect(object["error"] as? String == text) }
    if case .changes(let revision, let key, let by, let changes) = message {
      #expect(object["revision"] as? Int == revision)
      #expect(object["key"] as? String == key)
      #expect(object["by"] as? String == by)
      #expect((object["changes"] as? [Any])?.count == changes.count)
    }
  }

  @Test func presenceLinesAreWrittenAsTheyWereCheckedIntegersWithoutAFraction() {
    let line = PresenceLine(begin: Point(x: 1, y: -2.5), end: Point(x: 1e9, y: 0.125), color: "#00ff00", width: 3)
    #expect(
      PresenceLine.json([line])
        == ##"[{"begin":{"x":1,"y":-2.5},"end":{"x":1000000000,"y":0.125},"color":"#00ff00","width":3}]"##)
  }

  @Test func theBacklogIsOneMessagePerBatchKeyAndOnePerChangeWithoutOne() {
    let rows = [
      StoredChange(revision: 4, json: "A", batchKey: "k1"), StoredChange(revision: 5, json: "B", batchKey: "k1"),
      StoredChange(revision: 6, json: "C", batchKey: "k2"), StoredChange(revision: 7, json: "D"),
      StoredChange(revision: 8, json: "E"), StoredChange(revision: 9, json: "F", batchKey: "k1"),
    ]
    #expect(
      LiveRoom.backlog(rows) == [
        .changes(revision: 5, key: "k1", by: nil, changes: ["A", "B"]),
        .changes(revision: 6, key: "k2", by: nil, changes: ["C"]),
        .changes(revision: 7, key: nil, by: nil, changes: ["D"]),
        .changes(revision: 8, key: nil, by: nil, changes: ["E"]),
        .changes(revision: 9, key: "k1", by: nil, changes: ["F"]),
      ])
  }

  @Test func theRateLimitAllowsTheBurstThenTheRate() {
    var bucket = TokenBucket(rate: 2, burst: 3)
    let start = ContinuousClock.now
    #expect((0..<4).map { _ in bucket.take(at: start) } == [true, true, true, false])
    #expect(bucket.take(at: start + .milliseconds(400)) == false)  // 0.8 of a token
    #expect(bucket.take(at: start + .milliseconds(500)) == true)
    #expect(bucket.take(at: start + .seconds(100)) == true)  // refilled to the burst, not beyond
    #expect((0..<3).map { _ in bucket.take(at: start + .seconds(100)) } == [true, true, false])
  }

  @Test func theLivePathNamesADrawing() {
    #expect(LiveUpgrade.drawingName(inPath: "/api/drawings/my-drawing/live")?.rawValue == "my-drawing")
    #expect(LiveUpgrade.drawingName(inPath: "/api/drawings/d/live?x=1")?.rawValue == "d")
    #expect(LiveUpgrade.drawingName(inPath: "/api/drawings/d/changes") == nil)
    #expect(LiveUpgrade.drawingName(inPath: "/api/drawings/bad%20name/live") == nil)
    #expect(LiveUpgrade.drawingName(inPath: "/api/drawings//live") == nil)
  }
}
