import Hummingbird

/// Refuses a request whose `Host` is not this server (421), and a
/// state-changing request (`PUT`, `DELETE`, `POST`, `PATCH`) whose `Origin`
/// is another origin (403: another site, or another port of this one), with
/// a JSON error naming the header. See
/// `HostPolicy` for why.
///
/// Requests without `Host` (HTTP/1.0) pass, and so do requests without
/// `Origin` (curl, the CLI, same-origin `GET`s): browsers send `Host` always
/// and `Origin` on every cross-origin write, the requests a hostile page
/// can make.
struct HostCheckMiddleware<Context: RequestContext>: RouterMiddleware {
  let policy: HostPolicy

  func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
    -> Response
  {
    // No Host at all is HTTP/1.0 or a test client: never a browser, so
    // never a rebinding page.
    for host in [request.headers[.hostHeader], request.head.authority].compactMap({ $0 })
    where !policy.allows(host: host) {
      throw APIError(.misdirectedRequest, "Host '\(host)' is not a name of this server; see --public-host")
    }
    if Self.changesState(request.method), let origin = request.headers[.origin],
      !policy.allows(origin: origin, requestHost: request.headers[.hostHeader] ?? request.head.authority)
    {
      throw APIError(.forbidden, "Origin '\(origin)' may not change drawings on this server")
    }
    return try await next(request, context)
  }

  private static func changesState(_ method: HTTPRequest.Method) -> Bool {
    switch method {
    case .get, .head, .options: false
    default: true
    }
  }
}

extension HTTPFields.Element.Name {
  /// `Host` as a plain field: NIO turns it into `HTTPRequest.authority`, but
  /// a request built in-process (a test client) may carry it as a field.
  static let hostHeader = Self("Host")!
}
