/// How long one connection may take over each part of a request; past any
/// of them the server closes it, so slow or stalled clients (slowloris, a
/// half-sent body) hold no socket for long.
///
/// Generous for a person on a slow phone network: a drawing's few hundred
/// kilobytes arrive in seconds; 32 MiB (the largest body) at 1 MB/s in 32 s.
public struct ConnectionTimeouts: Sendable, Hashable {
  /// From the connection opening, or the previous response ending, until a
  /// complete request head has arrived. Also the keep-alive idle time.
  public var header: Duration
  /// From the request head until its body has completely arrived; past it the
  /// client gets 408 and the connection closes.
  public var body: Duration
  /// After a response that closes the connection (413, 408, HTTP/1.0), how
  /// long the rest of an unread body may keep arriving before the socket is
  /// closed outright; the client reads the response meanwhile.
  public var linger: Duration
  /// On graceful shutdown, how long a request whose body is still arriving
  /// may keep going before its connection is closed.
  public var shutdownBody: Duration

  public init(
    header: Duration = .seconds(10),
    body: Duration = .seconds(60),
    linger: Duration = .seconds(2),
    shutdownBody: Duration = .seconds(3)
  ) {
    self.header = header
    self.body = body
    self.linger = linger
    self.shutdownBody = shutdownBody
  }
}
