import NIOConcurrencyHelpers
import Testing

@testable import TouchTrackerServer

/// A client's send queue: bounded, and what happens when it is full.
@Suite struct LiveOutboxTests {
  static func outbox(messages: Int = 3, bytes: Int = 1000) -> (LiveOutbox, NIOLockedValueBox<Int>) {
    let overflows = NIOLockedValueBox(0)
    var limits = LiveLimits()
    limits.queuedMessages = messages
    limits.queuedBytes = bytes
    return (LiveOutbox(limits: limits) { _ in overflows.withLockedValue { $0 += 1 } }, overflows)
  }

  /// The writer never takes anything (a client that never reads): past
  /// the bound the queue is dropped, and nothing but presence is taken
  /// until the room resumes it with `reset`.
  @Test func aFullQueueFallsBehindOnceAndTakesOnlyPresenceUntilReset() async {
    let (outbox, overflows) = Self.outbox(messages: 3)
    #expect((0..<3).map { outbox.send(.welcome(revision: $0)) } == [true, true, true])
    #expect(overflows.withLockedValue { $0 } == 0)
    #expect(outbox.send(.welcome(revision: 3)) == false)
    #expect(outbox.send(.welcome(revision: 4)) == false)
    #expect(overflows.withLockedValue { $0 } == 1)
    #expect(outbox.isBehind)
    #expect(outbox.queued.messages == 0)
    #expect(outbox.send(.presence(by: "0000000a", lines: "[]")))
    #expect(outbox.resume(with: .reset(revision: 4)))
    #expect(outbox.send(.welcome(revision: 5)))
    guard case .messages(let texts) = await outbox.next() else {
      Issue.record("Expected the presence, the reset and what came after")
      return
    }
    #expect(
      texts == [
        ServerMessage.presence(by: "0000000a", lines: "[]").text, ServerMessage.reset(revision: 4).text,
        ServerMessage.welcome(revision: 5).text,
      ])
  }

  /// A peer's presence replaces its presence still queued, in its place;
  /// so does its `leave`. What a slow reader is owed of presence is one
  /// message per peer, and it never fills the queue.
  @Test func presenceIsCoalescedPerPeer() async {
    let (outbox, overflows) = Self.outbox(messages: 4, bytes: 10_000)
    for x in 0..<100 {
      #expect(outbox.send(.presence(by: "0000000a", lines: #"[{"x":\#(x)}]"#)))
      #expect(outbox.send(.presence(by: "0000000b", lines: #"[{"y":\#(x)}]"#)))
    }
    #expect(outbox.send(.ack(key: "k", revision: 1)))
    #expect(outbox.send(.leave(by: "0000000a")))
    #expect(overflows.withLockedValue { $0 } == 0)
    #expect(outbox.queued.messages == 3)
    let expected = [
      ServerMessage.leave(by: "0000000a").text, ServerMessage.presence(by: "0000000b", lines: #"[{"y":99}]"#).text,
      ServerMessage.ack(key: "k", revision: 1).text,
    ]
    #expect(outbox.queued.bytes == expected.reduce(0) { $0 + $1.utf8.count })
    guard case .messages(let texts) = await outbox.next() else {
      Issue.record("Expected the queued messages")
      return
    }
    #expect(texts == expected)
    // Taken: the next presence of a peer is queued anew.
    #expect(outbox.send(.presence(by: "0000000a", lines: "[]")))
    #expect(outbox.queued.messages == 1)
  }

  /// What overflows is the rest; the peers' presence stays, in its order.
  @Test func fallingBehindKeepsThePeersPresence() async {
    let (outbox, overflows) = Self.outbox(messages: 4, bytes: 10_000)
    outbox.send(.presence(by: "0000000b", lines: "[1]"))
    outbox.send(.welcome(revision: 1))
    outbox.send(.presence(by: "0000000a", lines: "[2]"))
    outbox.send(.welcome(revision: 2))
    #expect(outbox.send(.welcome(revision: 3)) == false)
    #expect(overflows.withLockedValue { $0 } == 1)
    #expect(outbox.send(.presence(by: "0000000b", lines: "[3]")))
    outbox.resume(with: .reset(revision: 3))
    guard case .messages(let texts) = await outbox.next() else {
      Issue.record("Expected the presence and the reset")
      return
    }
    #expect(
      texts == [
        ServerMessage.presence(by: "0000000b", lines: "[3]").text,
        ServerMessage.presence(by: "0000000a", lines: "[2]").text, ServerMessage.reset(revision: 3).text,
      ])
  }

  /// The writer takes a frame's worth at a time: what waits behind a full
  /// socket stays in the queue, bounded and droppable.
  @Test func theWriterTakesAFramesWorthAtATime() async {
    let (outbox, _) = Self.outbox(messages: 1000, bytes: 1 << 20)
    let text = String(repeating: "x", count: 10_000)
    for _ in 0..<20 { outbox.send(.error(text)) }
    outbox.send(.presence(by: "0000000a", lines: "[1]"))
    guard case .messages(let first) = await outbox.next() else {
      Issue.record("Expected messages")
      return
    }
    #expect(first.count == 6)  // 6 of 10,026 bytes in 64 KiB
    #expect(outbox.queued.messages == 15)
    // The presence still queued is still replaced in its place.
    outbox.send(.presence(by: "0000000a", lines: "[2]"))
    #expect(outbox.queued.messages == 15)
    let large = LiveOutbox(limits: LiveLimits()) { _ in }
    large.send(.error(String(repeating: "y", count: 100_000)))
    large.send(.welcome(revision: 1))
    guard case .messages(let alone) = await large.next() else {
      Issue.record("Expected messages")
      return
    }
    #expect(alone.count == 1)  // one larger than a frame goes alone
  }

  @Test func bytesCountTooButOneLargeMessageGoesAlone() async {
    let (outbox, overflows) = Self.outbox(messages: 100, bytes: 100)
    let large = ServerMessage.error(String(repeating: "x", count: 500))
    #expect(outbox.send(large))
    #expect(outbox.send(.welcome(revision: 1)) == false)
    #expect(overflows.withLockedValue { $0 } == 1)
  }

  @Test func whatIsQueuedIsWrittenInOrderThenTheClose() async {
    let (outbox, overflows) = Self.outbox(messages: 10)
    outbox.send(.welcome(revision: 1))
    outbox.send(.ack(key: "k", revision: 2))
    outbox.finish(LiveOutbox.Close(code: 1008, reason: ""))
    #expect(outbox.send(.welcome(revision: 3)) == false)
    guard case .messages(let texts) = await outbox.next() else {
      Issue.record("Expected the queued messages")
      return
    }
    #expect(texts == [ServerMessage.welcome(revision: 1).text, ServerMessage.ack(key: "k", revision: 2).text])
    guard case .close(let close) = await outbox.next() else {
      Issue.record("Expected the close")
      return
    }
    #expect(close == LiveOutbox.Close(code: 1008, reason: ""))
    #expect(overflows.withLockedValue { $0 } == 0)
  }
}
