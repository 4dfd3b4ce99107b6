import NIOCore
import NIOHTTP1

/// Sits right after NIO's HTTP/1 decoder, where requests are still HTTP/1
/// messages (Hummingbird's types above it no longer know the HTTP version),
/// and keeps each connection within `ConnectionTimeouts`:
///
/// - header timeout: a connection that has not sent a complete request head
///   in time (slowloris, or idle between keep-alive requests) is closed, and
///   sooner if too many are waiting (`WaitingConnections`);
/// - body timeout: a body still arriving in time gets 408 and a close;
/// - a response carrying `Connection: close` (413, 408, a malformed body,
///   a request that said `Connection: close`, HTTP/1.0 without keep-alive,
///   shutting down) closes the connection once written: output first, so
///   the client reads the answer, then the socket after `linger`, so a
///   client still sending is not left hanging; pipelined requests are
///   answered in order, each keeping its own keep-alive, and those after
///   one that closes are not read;
/// - on graceful shutdown, a request whose body is still arriving gets
///   `shutdownBody` more before its connection is closed.
///
/// - an upgrade to a WebSocket (101) removes the handler: the socket is
///   no longer HTTP.
///
/// Hummingbird's own idle handling leaves a request whose body trickles in
/// open for as long as bytes keep coming, and keeps a connection open after
/// an early 413 while it drains the body; this handler bounds both.
final class ConnectionGuardHandler: ChannelDuplexHandler, RemovableChannelHandler {
  typealias InboundIn = HTTPServerRequestPart
  typealias InboundOut = HTTPServerRequestPart
  typealias OutboundIn = HTTPServerResponsePart
  typealias OutboundOut = HTTPServerResponsePart

  private let timeouts: ConnectionTimeouts
  private let waiting: WaitingConnections
  private var timer: Scheduled<Void>?
  private var readingBody = false
  private var responding = false
  /// The requests whose head arrived and whose response has not ended,
  /// oldest first: whether each lets the connection stay open after its
  /// answer (pipelined requests are answered in order).
  private var keepAlives: [Bool] = []
  /// A request said `Connection: close`: what follows it is not read.
  private var closeRequested = false
  private var closeAfterResponse = false
  /// After the closing response: further writes are dropped.
  private var finished = false

  init(timeouts: ConnectionTimeouts, waiting: WaitingConnections) {
    self.timeouts = timeouts
    self.waiting = waiting
  }

  func handlerAdded(context: ChannelHandlerContext) {
    if context.channel.isActive { waitForHead(context) }
  }

  func handlerRemoved(context: ChannelHandlerContext) {
    cancelTimer()
    waiting.remove(context.channel)
  }

  func channelActive(context: ChannelHandlerContext) {
    waitForHead(context)
    context.fireChannelActive()
  }

  func channelInactive(context: ChannelHandlerContext) {
    cancelTimer()
    waiting.remove(context.channel)
    context.fireChannelInactive()
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    // Requests pipelined after one that closes the connection would run
    // with no way to send their answers: they are dropped unread.
    guard !closeRequested || readingBody else { return }
    switch unwrapInboundIn(data) {
    case .head(let head):
      waiting.remove(context.channel)
      readingBody = true
      keepAlives.append(head.isKeepAlive)
      if !head.isKeepAlive { closeRequested = true }
      schedule(context, after: timeouts.body, Self.bodyTimedOut)
    case .body:
      break
    case .end:
      readingBody = false
      cancelTimer()  // The request is complete: its handler may take its time.
    }
    context.fireChannelRead(data)
  }

  func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
    guard !finished else {
      promise?.fail(ChannelError.ioOnClosedChannel)
      return
    }
    switch unwrapOutboundIn(data) {
    case .head(let head) where head.status == .switchingProtocols:
      // A WebSocket from now on (`LiveUpgrade`): what follows is frames,
      // not requests, and the socket keeps its own time (pings, limits).
      // Flushed here: NIO calls `flush` on this handler right after this
      // `write` (the upgrader writes and flushes at once), and a handler
      // that has left the pipeline flushes nothing.
      cancelTimer()
      waiting.remove(context.channel)
      context.writeAndFlush(wrapOutboundOut(.head(head)), promise: promise)
      context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    case .head(var head):
      responding = true
      let closing = head.headers[canonicalForm: "connection"].contains { $0.lowercased() == "close" }
      if !(keepAlives.first ?? true) || closing { closeAfterResponse = true }
      if closeAfterResponse { head.headers.replaceOrAdd(name: "connection", value: "close") }
      context.write(wrapOutboundOut(.head(head)), promise: promise)
    case .body:
      context.write(data, promise: promise)
    case .end:
      responding = false
      if !keepAlives.isEmpty { keepAlives.removeFirst() }
      if closeAfterResponse {
        finish(context, lastWrite: data, promise: promise)
      } else {
        context.write(data, promise: promise)
        if keepAlives.isEmpty && !readingBody { waitForHead(context) }
      }
    }
  }

  /// NIO's parser refused the bytes (a control character in a header, two
  /// `Content-Length`s, a lower-case method...): 400 naming the problem,
  /// and the connection closes, since nothing after it can be read.
  func errorCaught(context: ChannelHandlerContext, error: any Error) {
    guard let problem = error as? HTTPParserError, !finished else {
      context.fireErrorCaught(error)
      return
    }
    cancelTimer()
    guard !responding else {
      context.close(promise: nil)
      return
    }
    respondAndClose(context, status: .badRequest, error: "Malformed HTTP request (\(problem))")
  }

  func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
    if event is ChannelShouldQuiesceEvent {
      // Responses from now on close their connection; a body still arriving
      // gets a short grace. A connection with no request in hand (idle, or
      // part of a head, which Hummingbird does not count as idle and would
      // wait on until the header timeout) closes now: nothing of it was accepted.
      closeAfterResponse = true
      if readingBody {
        schedule(context, after: timeouts.shutdownBody, Self.bodyTimedOut)
      } else if keepAlives.isEmpty && !responding {
        cancelTimer()
        context.close(promise: nil)
        return
      }
    }
    context.fireUserInboundEventTriggered(event)
  }

  // MARK: - Timeouts

  private func waitForHead(_ context: ChannelHandlerContext) {
    waiting.add(context.channel)
    schedule(context, after: timeouts.header) { _, context in context.close(promise: nil) }
  }

  /// Answers 408 if no response has begun (the handler is still waiting for
  /// the body), else just closes.
  private static func bodyTimedOut(_ handler: ConnectionGuardHandler, _ context: ChannelHandlerContext) {
    guard !handler.responding, !handler.finished else {
      context.close(promise: nil)
      return
    }
    handler.respondAndClose(context, status: .requestTimeout, error: "Request body not received within the time limit")
  }

  /// Answers `status` with `{"error": error}` and closes the connection.
  private func respondAndClose(_ context: ChannelHandlerContext, status: HTTPResponseStatus, error: String) {
    let body = ByteBuffer(string: #"{"error":"# + ServerMessage.quoted(error) + "}")
    var headers = HTTPHeaders()
    headers.add(name: "content-type", value: "application/json; charset=utf-8")
    headers.add(name: "content-length", value: String(body.readableBytes))
    headers.add(name: "connection", value: "close")
    for (name, value) in SecurityHeaders.all { headers.add(name: name, value: value) }
    context.write(
      wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))), promise: nil)
    context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
    finish(context, lastWrite: wrapOutboundOut(.end(nil)), promise: nil)
  }

  /// Writes the last part of the closing response, half-closes the output so
  /// the client sees the end, and closes the socket after `linger`.
  private func finish(_ context: ChannelHandlerContext, lastWrite: NIOAny, promise: EventLoopPromise<Void>?) {
    finished = true
    context.writeAndFlush(lastWrite, promise: promise)
    context.close(mode: .output, promise: nil)
    schedule(context, after: timeouts.linger) { _, context in context.close(promise: nil) }
  }

  private func schedule(
    _ context: ChannelHandlerContext,
    after delay: Duration,
    _ action: @escaping (ConnectionGuardHandler, ChannelHandlerContext) -> Void
  ) {
    cancelTimer()
    let nanoseconds = delay.components.seconds * 1_000_000_000 + delay.components.attoseconds / 1_000_000_000
    timer = context.eventLoop.assumeIsolated().scheduleTask(in: .nanoseconds(nanoseconds)) {
      self.timer = nil
      action(self, context)
    }
  }

  private func cancelTimer() {
    timer?.cancel()
    timer = nil
  }
}

@available(*, unavailable)
extension ConnectionGuardHandler: Sendable {}
