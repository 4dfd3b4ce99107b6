import Hummingbird

/// Says in every answer that is not a refusal how long the server took to
/// make it, as `Server-Timing: app;dur=0.412` (milliseconds, the W3C Server
/// Timing header that browsers' developer tools show next to the request):
/// from the moment the router had the request's head until the response was
/// ready, body read and store written included. The outermost middleware,
/// so the time covers all the others. Refusals (4xx, 5xx) go without it: a
/// precise clock on them would help someone probing which drawings exist or
/// which keys come close, which the access checks answer alike.
/// `Benchmarks/server/append.py` reads it for "server time".
struct ServerTimingMiddleware<Context: RequestContext>: RouterMiddleware {
  func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
    -> Response
  {
    let start = ContinuousClock.now
    var response = try await next(request, context)
    if response.status.code < 400 {
      response.headers[.serverTiming] = Self.value(elapsed: ContinuousClock.now - start)
    }
    return response
  }

  /// `app;dur=` and the milliseconds with three decimals (microseconds).
  static func value(elapsed: Duration) -> String {
    let (seconds, attoseconds) = elapsed.components
    let microseconds = max(0, seconds * 1_000_000 + attoseconds / 1_000_000_000_000)
    let fraction = String(microseconds % 1000)
    return "app;dur=\(microseconds / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
  }
}

extension HTTPFields.Element.Name {
  static let serverTiming = Self("Server-Timing")!
}
