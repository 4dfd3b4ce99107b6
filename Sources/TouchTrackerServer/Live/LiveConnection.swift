import HummingbirdWebSocket
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOWebSocket
import TouchTrackerStore

/// One client of `GET /api/drawings/NAME/live`: reads its messages one at a
/// time (the next is read once the last is stored and queued), and writes
/// what its `LiveOutbox` holds from a task of its own, so the room never
/// waits for this socket.
struct LiveConnection: Sendable {
  let rooms: LiveRooms
  let name: DrawingName
  /// What `hello`'s key opens (access control).
  let check: AccessCheck
  /// The socket, to cut it when the client is too slow to take a close frame.
  let channel: any Channel

  func run(_ inbound: WebSocketInboundStream, _ outbound: WebSocketOutboundWriter, logger: Logger) async {
    let limits = rooms.limits
    let channel = channel
    let roomOf = NIOLockedValueBox<LiveRoom?>(nil)
    let counters = rooms.metrics.live
    let outbox = LiveOutbox(limits: limits) { outbox in
      Task {
        // Behind: the room sends `reset`, and the client reads the document.
        if let room = roomOf.withLockedValue({ $0 }), await room.fellBehind(outbox) {
          counters.slow("reset")
          return
        }
        counters.slow("closed")
        // Not in a room, or no hello (it was sent only pongs): its queue is
        // full, so a close frame would wait behind it; try, and cut the
        // socket after the grace either way.
        outbox.finish(nil)
        let grace = limits.closeGrace.components
        channel.eventLoop.scheduleTask(
          in: .seconds(grace.seconds) + .nanoseconds(grace.attoseconds / 1_000_000_000)
        ) { channel.close(promise: nil) }
        try? await outbound.close(.policyViolation, reason: "too slow")
      }
    }
    // A socket that never says hello is told so and closed, then cut if it
    // does not take the close (as a client too slow to read).
    let helloWatch = Task {
      try await Task.sleep(for: limits.helloDeadline)
      guard !outbox.saidHello else { return }
      outbox.send(.error("No hello within \(limits.helloDeadline): a live socket says hello first"))
      outbox.finish(LiveOutbox.Close(code: LiveError.policyViolation, reason: ""))
      try await Task.sleep(for: limits.closeGrace)
      channel.close(promise: nil)
    }
    defer { helloWatch.cancel() }
    await rooms.withRoom(name) { room in
      roomOf.withLockedValue { $0 = room }
      room.add(outbox)
      defer { room.remove(outbox) }
      await withTaskGroup(of: Void.self) { group in
        group.addTask { await Self.write(outbox, to: outbound, counters: rooms.metrics.live, pace: { room.pace }) }
        let close = await read(inbound, room: room, outbox: outbox, logger: logger)
        outbox.finish(close)
        group.addTask {
          // A client that stopped reading would keep the writer forever.
          try? await Task.sleep(for: limits.closeGrace)
          if !Task.isCancelled { channel.close(promise: nil) }
        }
        _ = await group.next()
        group.cancelAll()
      }
    }
  }

  /// Writes what is queued until the outbox says how to end. In a large
  /// room (`pace` not nil) it waits that long after starting a frame before
  /// it takes the next, so that one frame carries what came meanwhile: the
  /// messages wait in the outbox, where they count against its bound and
  /// presence is coalesced per peer. A take near `LiveOutbox.takenBytes`
  /// is not followed by a wait: the client is behind, and the frame is
  /// already full.
  private static func write(
    _ outbox: LiveOutbox, to outbound: WebSocketOutboundWriter, counters: LiveMessageCounters,
    pace: @Sendable () -> Duration?
  ) async {
    do {
      while true {
        switch await outbox.next() {
        case .messages(let texts):
          let started = ContinuousClock.now
          let frames = outbox.takesBatches ? frames(texts) : texts
          // Counted before they go: a client may act on a message (and
          // a scrape follow) before the write returns.
          counters.sent(texts, frames: frames.count)
          for frame in frames { try await outbound.write(.text(frame)) }
          if let pace = pace(), texts.reduce(0, { $0 + $1.utf8.count }) < LiveOutbox.takenBytes / 2 {
            try? await Task.sleep(until: started.advanced(by: pace), clock: .continuous)
          }
        case .close(let close):
          try await outbound.close(
            WebSocketErrorCode(codeNumber: Int(close.code)), reason: close.reason.isEmpty ? nil : close.reason)
          return
        case .end:
          return
        }
      }
    } catch {
      outbox.finish(nil)  // The socket is gone.
    }
  }

  /// The largest frame that `frames` makes of several messages.
  static let batchBytes = 64 * 1024

  /// `texts` as frames of a client that said `"batches": true`: runs of
  /// messages as JSON arrays (`[M1,M2,...]`) up to `batchBytes`, and a
  /// message alone as itself. Every frame is written and flushed on its
  /// own (one system call each), so at 100 clients on one drawing the
  /// server wrote 100,000 frames a second one by one; a client that falls
  /// behind now gets what is queued for it in a few frames.
  static func frames(_ texts: [String]) -> [String] {
    var frames: [String] = []
    var run: [String] = []
    var bytes = 0
    func flush() {
      if run.count == 1 {
        frames.append(run[0])
      } else if !run.isEmpty {
        frames.append("[" + run.joined(separator: ",") + "]")
      }
      run.removeAll(keepingCapacity: true)
      bytes = 0
    }
    for text in texts {
      let size = text.utf8.count + 1
      if !run.isEmpty, bytes + size > batchBytes { flush() }
      run.append(text)
      bytes += size
    }
    flush()
    return frames
  }

  /// Where the valid UTF-8 of `bytes[start...]` ends: `bytes.count` if all
  /// of it is, the start of a sequence cut off at the end that more bytes
  /// could complete, or nil if a byte sequence in it can never be valid (a
  /// stray continuation byte, an overlong form, a surrogate, past U+10FFFF;
  /// the Unicode Standard's table 3-7). `start` begins a character. Each
  /// fragment of a text message is checked as it comes (RFC 6455 §8.1 and
  /// Autobahn 6.4: fail fast), so the check goes on from where it stopped.
  static func validUTF8End(_ bytes: [UInt8], from start: Int = 0) -> Int? {
    var index = start
    let count = bytes.count
    while index < count {
      let lead = bytes[index]
      if lead < 0x80 {
        index += 1
        continue
      }
      let length: Int
      var low: UInt8 = 0x80
      var high: UInt8 = 0xBF
      switch lead {
      case 0xC2...0xDF: length = 2
      case 0xE0: (length, low) = (3, 0xA0)
      case 0xE1...0xEC, 0xEE...0xEF: length = 3
      case 0xED: (length, high) = (3, 0x9F)
      case 0xF0: (length, low) = (4, 0x90)
      case 0xF1...0xF3: length = 4
      case 0xF4: (length, high) = (4, 0x8F)
      default: return nil
      }
      // The second byte has the lead's range, the others 80-BF.
      for offset in 1..<length {
        guard index + offset < count else { return index }
        let byte = bytes[index + offset]
        guard offset == 1 ? (low...high).contains(byte) : (0x80...0xBF).contains(byte) else { return nil }
      }
      index += length
    }
    return count
  }

  /// Reads and handles messages until the client leaves (nil) or breaks a
  /// rule (its `error` is queued; the answer is how to close).
  private func read(
    _ inbound: WebSocketInboundStream, room: LiveRoom, outbox: LiveOutbox, logger: Logger
  ) async -> LiveOutbox.Close? {
    let limits = rooms.limits
    var rate = TokenBucket(rate: limits.messageRate, burst: limits.messageBurst)
    var presenceRate = TokenBucket(rate: limits.presenceRate, burst: limits.presenceBurst)
    var said: String?
    var access = Access.open
    var message: [UInt8] = []
    /// How much of `message` is known to be UTF-8.
    var validUTF8 = 0
    /// Whether a message's first frame came and its final one has not.
    var fragmented = false
    var index = 0
    var frames = inbound.makeAsyncIterator()
    do {
      while let frame = try await frames.next() {
        // Every frame, a fragment too, is counted in the rate: empty
        // continuations would otherwise cost nothing.
        guard rate.take() else {
          throw LiveError(
            "Message \(index + 1) is over the limit of \(Int(limits.messageRate)) messages a second"
              + " (a burst of \(Int(limits.messageBurst)); each fragment counts as one)")
        }
        switch frame.opcode {
        case .binary:
          throw LiveError(
            "Binary message \(index + 1): send text frames, one JSON object each", closeCode: LiveError.unsupportedData)
        case .text:
          guard !fragmented else {
            throw LiveError(
              "Message \(index + 2) began while message \(index + 1) still awaited its final fragment"
                + " (RFC 6455 §5.4: fragments of one message are not interleaved)",
              closeCode: LiveError.protocolError)
          }
          message.removeAll(keepingCapacity: true)
        case .continuation:
          guard fragmented else {
            throw LiveError(
              "A continuation frame after message \(index) with no message begun (RFC 6455 §5.4)",
              closeCode: LiveError.protocolError)
          }
        }
        guard message.count + frame.data.readableBytes <= limits.messageBytes else {
          throw LiveError(
            "Message \(index + 1) is larger than \(limits.messageBytes) bytes; send larger batches by POST .../changes",
            closeCode: LiveError.messageTooBig)
        }
        message += frame.data.readableBytesView
        fragmented = !frame.fin
        // Checked per fragment, keeping a character cut off at its end for
        // the next one: a fragment that can never be UTF-8 fails at once.
        guard let valid = Self.validUTF8End(message, from: validUTF8), frame.fin ? valid == message.count : true
        else {
          throw LiveError(
            "Message \(index + 1) is not valid UTF-8 (RFC 6455 §8.1: text messages are UTF-8)",
            closeCode: LiveError.invalidPayload)
        }
        validUTF8 = valid
        guard frame.fin else { continue }
        index += 1
        validUTF8 = 0
        let decoded: ClientMessage
        do {
          decoded = try ClientMessage.decode(message)
        } catch {
          throw LiveError("\(error.message) in message \(index)", closeCode: error.closeCode)
        }
        rooms.metrics.live.received(decoded.type)
        switch decoded {
        case .hello(let since, let client, let key, let batches):
          // Without a key that opens the drawing, the same sentence whether
          // or not it exists (as the HTTP API's 404).
          guard let granted = try await check.access(to: name, key: key) else {
            throw LiveError("No drawing named '\(name)' for this key in message \(index): hello needs the link's key")
          }
          access = granted
          said = client
          outbox.takesBatches = batches
          outbox.saidHello = true
          try await room.join(outbox, since: since, by: client, byLink: access == .edit || access == .view)
        case .changes(let key, let changes):
          guard said != nil else { throw LiveError("Message \(index) is 'changes' before 'hello'") }
          guard access.canWrite else {
            throw LiveError("Message \(index) is 'changes' from a view-only link: it cannot change the drawing")
          }
          do {
            _ = try await room.append(ChangeBatch(changes: changes, key: key), from: outbox)
          } catch let error as DocumentError {
            throw LiveError("\(error.description) in message \(index)")
          }
        case .presence(let lines):
          guard said != nil else { throw LiveError("Message \(index) is 'presence' before 'hello'") }
          guard access.canWrite else {
            throw LiveError("Message \(index) is 'presence' from a view-only link: it cannot draw")
          }
          // Over the rate a line in progress is dropped; "no lines" never
          // is, or the others would keep showing a line already lifted.
          if presenceRate.take() || lines.isEmpty { room.relay(presence: lines, from: outbox) }
        case .ping:
          _ = outbox.send(.pong)
        }
      }
      return nil
    } catch let error as LiveError {
      rooms.metrics.live.refused()
      outbox.send(.error(error.message))
      return LiveOutbox.Close(
        code: error.closeCode, reason: error.closeCode == LiveError.messageTooBig ? "too big" : "")
    } catch let error as DrawingStoreError {
      logger.error("Live sync of '\(name)' failed: \(error)")
      outbox.send(.error("The server could not store the changes: \(error)"))
      return LiveOutbox.Close(code: LiveError.internalError, reason: "")
    } catch {
      if let problem = DatabaseProblem.sentence(for: error) {
        logger.error("Live sync of '\(name)' failed: \(error)")
        outbox.send(.error("The server could not store the changes of '\(name)': \(problem)"))
        return LiveOutbox.Close(code: LiveError.internalError, reason: "")
      }
      // The socket failed: nothing to tell a client that is gone.
      logger.debug("Live connection to '\(name)' ended: \(error)")
      return LiveOutbox.Close(code: LiveError.internalError, reason: "")
    }
  }
}
