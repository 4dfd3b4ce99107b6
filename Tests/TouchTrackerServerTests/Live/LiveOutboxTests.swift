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
    return (LiveOutbox(limits: limits) { overflows.withLockedValue { $0 += 1 } }, overflows)
  }

  /// The writer never takes anything (a client that never reads).
  @Test func aFullQueueClosesTheClientOnceAndTakesNothingMore() async {
    let (outbox, overflows) = Self.outbox(messages: 3)
    #expect((0..<3).map { outbox.send(.welcome(revision: $0)) } == [true, true, true])
    #expect(overflows.withLockedValue { $0 } == 0)
    #expect(outbox.send(.welcome(revision: 3)) == false)
    #expect(outbox.send(.welcome(revision: 4)) == false)
    #expect(overflows.withLockedValue { $0 } == 1)
    guard case .end = await outbox.next() else {
      Issue.record("The queue of a client too slow is dropped")
      return
    }
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
