import Foundation
import Hummingbird
import TouchTrackerStore

/// The gate in front of every `/api/drawings` route while access control is
/// on (`AccessControl`): the key travels as `Authorization: Bearer KEY`.
///
/// - No key, or a key that opens nothing here: 404 with the very answer a
///   drawing that does not exist gets, so a guess learns nothing, not even
///   whether the name is in use. The list answers 403.
/// - A view link writing (`PUT`, `POST`): 403. An edit link writes the
///   document (`PUT`) and its changes (`POST .../changes`) only: `DELETE`,
///   rotating links (`POST .../links`), renaming (`POST .../rename`) and any
///   other write need the admin token: 403 for a link.
///
/// It runs before the handler reads the body, so a refused request changes
/// nothing. `OPTIONS` passes: it says what a path allows, nothing about a
/// drawing.
struct AccessMiddleware: RouterMiddleware {
  typealias Context = BasicRequestContext
  let check: AccessCheck

  func handle(
    _ request: Request, context: Context, next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    guard check.isOn, request.method != .options else { return try await next(request, context) }
    let key = AccessCheck.bearerKey(request.headers[.authorization])
    guard let raw = context.parameters.get("name") else {
      guard try await check.access(to: nil, key: key)?.isAdmin == true else { throw APIError.listNeedsAdmin }
      return try await next(request, context)
    }
    // A bad name is the handler's 400, which says nothing about a drawing.
    guard let name = try? DrawingName(raw.removingPercentEncoding ?? raw) else {
      return try await next(request, context)
    }
    guard let access = try await check.access(to: name, key: key) else { throw APIError.notFound(name) }
    switch request.method {
    case .get, .head:
      break
    case .delete:
      guard access.isAdmin else { throw APIError.needsAdmin("Deleting a drawing") }
    default:
      guard access.canWrite else { throw APIError.viewOnly(name) }
      guard !access.isAdmin else { break }
      // A link writes the document and its changes, nothing else. The route
      // is read as the router reads it (empty segments skipped: a trailing
      // or doubled slash is the same route), and anything not named here
      // needs the admin.
      switch (request.method, Self.routeAfterName(request.uri.path)) {
      case (.put, []), (.post, ["changes"]):
        break
      case (_, ["links"]):
        throw APIError.needsAdmin("Changing a drawing's links")
      case (_, ["rename"]):
        throw APIError.needsAdmin("Renaming a drawing")
      default:
        throw APIError.needsAdmin("This request")
      }
    }
    return try await next(request, context)
  }

  /// The path's segments after `/api/drawings/NAME`, empty ones skipped.
  static func routeAfterName(_ path: String) -> [Substring] {
    Array(path.split(separator: "/", omittingEmptySubsequences: true).dropFirst(3))
  }
}

extension APIError {
  static let listNeedsAdmin = APIError(
    .forbidden, "Listing drawings needs the admin token (printed when the server started)")

  static func needsAdmin(_ what: String) -> APIError {
    APIError(.forbidden, "\(what) needs the admin token (printed when the server started)")
  }

  static func viewOnly(_ name: DrawingName) -> APIError {
    APIError(.forbidden, "This link to '\(name)' is view-only: it cannot change the drawing")
  }
}
