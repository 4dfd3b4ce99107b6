import Foundation
import Hummingbird
import TouchTrackerStore

/// `/api/drawings/NAME/links`: the drawing's share links, and what the
/// caller's key opens (the page asks this first, to know whether it may
/// draw).
///
/// ```
/// GET  .../links  200 {"access": "admin"|"edit"|"open", "edit": KEY, "view": KEY}
///                 200 {"access": "view", "view": KEY}          (a view link sees only its own)
/// POST .../links  200 the same, with two new keys (admin only): the old ones open nothing,
///                 and live sockets opened with them are closed
/// ```
///
/// A `GET` by the admin, an edit link or anyone while access control is off
/// makes the links if the drawing had none; `AccessMiddleware` has checked
/// the key before either runs.
struct LinksController {
  let store: any DrawingStorage
  let check: AccessCheck
  let rooms: LiveRooms

  func addRoutes(to group: RouterGroup<BasicRequestContext>) {
    group.get(":name/links", use: links)
    group.post(":name/links", use: rotate)
    group.on(":name/links", method: .options) { _, _ in DrawingsController.allow("GET, POST, OPTIONS") }
  }

  struct Answer: Encodable {
    var access: String
    var edit: String?
    var view: String
  }

  @Sendable func links(_ request: Request, context: BasicRequestContext) async throws -> Response {
    let (name, access) = try await resolve(request, context: context)
    if access == .view {
      guard let links = try await store.links(of: name) else { throw APIError.notFound(name) }
      return try JSONBody.response(Answer(access: access.rawValue, view: links.view))
    }
    let links = try await store.makeLinks(for: name)
    return try JSONBody.response(Answer(access: access.rawValue, edit: links.edit, view: links.view))
  }

  @Sendable func rotate(_ request: Request, context: BasicRequestContext) async throws -> Response {
    let (name, access) = try await resolve(request, context: context)
    guard access.isAdmin else { throw APIError.needsAdmin("Changing a drawing's links") }
    let links = try await store.rotateLinks(of: name)
    await rooms.withRoom(name) { $0.dismissLinkHolders("The links to this drawing were replaced") }
    return try JSONBody.response(Answer(access: access.rawValue, edit: links.edit, view: links.view))
  }

  private func resolve(_ request: Request, context: BasicRequestContext) async throws -> (DrawingName, Access) {
    let raw = try context.parameters.require("name")
    let name: DrawingName
    do {
      name = try DrawingName(raw.removingPercentEncoding ?? raw)
    } catch {
      throw APIError(error)
    }
    let key = AccessCheck.bearerKey(request.headers[.authorization])
    guard let access = try await check.access(to: name, key: key) else { throw APIError.notFound(name) }
    return (name, access)
  }
}
