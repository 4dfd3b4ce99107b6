import Foundation
import Hummingbird
import Logging

extension HTTPFields.Element.Name {
  /// The request's id: the client's, when it sent a usable one, or the server's.
  static let requestID = Self("X-Request-Id")!
}

/// Gives every request an id, answers it in `X-Request-Id` and puts it on
/// every log line of the request; counts and times each request
/// (`ServerMetrics`) and logs it once at `info` when it is answered: method, path (never its query, where a page's token may
/// be), status and milliseconds.
///
/// A client's own `X-Request-Id` (1 to 64 letters, digits, `.`, `_`, `-`)
/// is kept, so a request is followed through a proxy that set one; anything
/// else is replaced by the server's.
struct RequestLogMiddleware<Context: RequestContext>: RouterMiddleware {
  /// Where each answered request is counted and timed (`/metrics`).
  let metrics: ServerMetrics

  func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
    -> Response
  {
    var context = context
    let id = request.headers[.requestID].flatMap(Self.usable) ?? context.id
    context.logger[metadataKey: "hb.request.id"] = .string(id)
    let start = ContinuousClock.now
    var response: Response
    do {
      response = try await next(request, context)
    } catch let error as any HTTPResponseError {
      response = try error.response(from: request, context: context)
    }
    response.headers[.requestID] = id
    let elapsed = ContinuousClock.now - start
    metrics.request(
      route: ServerMetrics.route(of: request.uri.path), method: request.method.rawValue,
      status: response.status.code, elapsed: elapsed)
    let milliseconds = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
    context.logger.info(
      "request",
      metadata: [
        "method": .string(request.method.rawValue), "path": .string(request.uri.path),
        "status": .stringConvertible(response.status.code),
        "ms": .string(String(format: "%.1f", milliseconds)),
      ])
    return response
  }

  static func usable(_ id: String) -> String? {
    guard (1...64).contains(id.utf8.count),
      id.utf8.allSatisfy({
        $0.isASCIILetterOrDigit || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-")
      })
    else { return nil }
    return id
  }
}

extension UInt8 {
  fileprivate var isASCIILetterOrDigit: Bool {
    (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(self) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(self)
      || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self)
  }
}
