import Foundation
import Hummingbird
import TouchTrackerStore

/// The gate in front of every `/api/drawings` route while access control is
/// on (`AccessControl`): the key travels as `Authorization: Bearer KEY`.
///
/// - No key, or a key that opens nothing here: 404 with the very answer a
///   drawing that does not exist gets, so a guess learns nothing, not even
///   whether the name is in use. The list answers 403.
/// - A view link writing (`PUT`, `POST`): 403. `DELETE`, rotating links
///   (`POST .../links`) and renaming (`POST .../rename`) need the admin
///   token: 403 for a link.
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
      if request.uri.path.hasSuffix("/links") && !access.isAdmin {
        throw APIError.needsAdmin("Changing a drawing's links")
      }
      if request.uri.path.hasSuffix("/rename") && !access.isAdmin {
        throw APIError.needsAdmin("Renaming a drawing")
      }
    }
    return try await next(request, context)
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
