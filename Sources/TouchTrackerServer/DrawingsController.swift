import Foundation
import Hummingbird
import NIOHTTP1
import TouchTrackerCore
import TouchTrackerStore

/// `/api/drawings`: list, read, save and delete documents; append changes
/// and read the changes after a revision.
///
/// Revisions travel as HTTP validators: `GET` returns the revision in `ETag`
/// (`"3"`) and `X-Revision` (`3`); `PUT`, `POST .../changes` and `DELETE`
/// take an optional `If-Match: "3"` and answer 409 with the current revision
/// if it is stale. Every request is validated (name, headers, size, body)
/// before the store is touched, so a bad request never changes a drawing.
///
/// `HEAD` answers as `GET` without the body; `OPTIONS` says what a path allows.
///
/// Everything that moves a drawing's revision goes through its live room
/// (`LiveRooms`), so the clients of `.../live` see appended changes and a
/// `reset` after `PUT` and `DELETE`, in revision order.
struct DrawingsController {
  let store: any DrawingStorage
  let rooms: LiveRooms
  /// The bytes of bodies in flight across all requests (`withBody`).
  let budget: BodyBudget

  func addRoutes(to group: RouterGroup<BasicRequestContext>) {
    group.get(use: list)
    group.head { Self.withoutBody(try await list($0, context: $1)) }
    group.on("", method: .options) { _, _ in Self.allow("GET, HEAD, OPTIONS") }
    group.get(":name", use: load)
    group.head(":name") { Self.withoutBody(try await load($0, context: $1)) }
    group.put(":name", use: save)
    group.delete(":name", use: delete)
    group.on(":name", method: .options) { _, _ in Self.allow("GET, HEAD, PUT, DELETE, OPTIONS") }
    group.get(":name/changes", use: changes)
    group.head(":name/changes") { Self.withoutBody(try await changes($0, context: $1)) }
    group.post(":name/changes", use: append)
    group.on(":name/changes", method: .options) { _, _ in Self.allow("GET, HEAD, POST, OPTIONS") }
    group.post(":name/rename", use: rename)
    group.on(":name/rename", method: .options) { _, _ in Self.allow("POST, OPTIONS") }
    group.get(":name/thumbnail", use: thumbnail)
    group.head(":name/thumbnail") { Self.withoutBody(try await thumbnail($0, context: $1)) }
    group.on(":name/thumbnail", method: .options) { _, _ in Self.allow("GET, HEAD, OPTIONS") }
    group.get(":name/live", use: live)
    group.on(":name/live", method: .options) { _, _ in Self.allow("GET, OPTIONS") }
  }

  /// `response` as the answer to `HEAD`: the same status and headers,
  /// `Content-Length` included, and no body.
  static func withoutBody(_ response: Response) -> Response {
    var response = response
    let length = response.headers[.contentLength]
    response.body = ResponseBody()
    response.headers[.contentLength] = length
    return response
  }

  static func allow(_ methods: String) -> Response {
    Response(status: .noContent, headers: [.allow: methods])
  }

  /// The stored document text exactly, with nothing added to the body.
  @Sendable func load(_ request: Request, context: BasicRequestContext) async throws -> Response {
    let name = try Self.name(in: context)
    let stored: StoredDocument?
    do {
      stored = try await store.loadDocument(name)
    } catch let error as DrawingStoreError {
      context.logger.error("\(error)")
      throw APIError(error)
    }
    guard let document = stored else { throw await sayingWhereItWent(name, APIError.notFound(name)) }
    return JSONBody.response(json: document.json, headers: Self.revisionHeaders(document.revision), for: request)
  }

  /// `error` (a 404 or a 409 for `name`), saying where the drawing went if
  /// `name` is what a rename left: a page that missed the rename (offline,
  /// its socket down) follows it there instead of starting an empty drawing
  /// or meeting a conflict. Only for those who could open `name` at all:
  /// with access control on, a share link opens its own drawing's new name
  /// only (the tombstone has no links), so it gets the plain 404.
  private func sayingWhereItWent(_ name: DrawingName, _ error: APIError) async -> APIError {
    var error = error
    error.movedTo = try? await store.movedTo(name)
    return error
  }

  @Sendable func save(_ request: Request, context: BasicRequestContext) async throws -> Response {
    let name = try Self.name(in: context)
    let expected = try Self.expectedRevision(in: request)
    do {
      // The body stays counted in the budget until the drawing is stored:
      // its lines are in memory as long.
      let revision = try await withBody(
        of: request, upTo: APIError.maximumDocumentBodySize, else: .documentTooLarge
      ) { body in
        let drawing: Drawing
        do {
          drawing = try await DocumentDecoding.decode(body.take())
        } catch let error as DocumentError {
          throw APIError(error)
        }
        return try await rooms.withRoom(name) { room in
          try await room.replace(revision: { $0 }) { try await store.save(drawing, as: name, ifRevision: expected) }
        }
      }
      struct Saved: Encodable { var revision: Int }
      return try JSONBody.response(Saved(revision: revision), headers: Self.revisionHeaders(revision))
    } catch let error as DrawingStoreError {
      guard case .conflict = error else { throw APIError(error) }
      throw await sayingWhereItWent(name, APIError(error))
    }
  }

  /// `POST /api/drawings/NAME/changes` with `{"changes": [CHANGE, ...]}`:
  /// appends them to the drawing's log (creating the drawing if needed) and
  /// answers `{"revision": N}`, the revision after the last one. With an
  /// `Idempotency-Key`, a batch already appended under that key appends
  /// nothing and answers the revision it ended at. `If-Match: *` (the
  /// drawing exists: a client that saw it) on a name a rename left answers
  /// 404 with where it went, instead of creating a new drawing there.
  @Sendable func append(_ request: Request, context: BasicRequestContext) async throws -> Response {
    let name = try Self.name(in: context)
    let mustExist = request.headers[.ifMatch]?.trimmingCharacters(in: .whitespaces) == "*"
    let expected = mustExist ? nil : try Self.expectedRevision(in: request)
    let key = try Self.idempotencyKey(in: request)
    if mustExist, try await store.summary(of: name) == nil, try await store.movedTo(name) != nil {
      throw await sayingWhereItWent(name, APIError.notFound(name))
    }
    do {
      let revision = try await withBody(of: request) { body in
        let changes = try await ChangeDecoding.decode(body.take())
        let batch = ChangeBatch(changes: changes, key: key, expected: expected)
        return try await rooms.withRoom(name) { try await $0.append(batch, from: nil) }.revision
      }
      // `{"revision":N}`, as `JSONBody` would write it, without an encoder.
      return JSONBody.response(json: Data("{\"revision\":\(revision)}".utf8), headers: Self.revisionHeaders(revision))
    } catch let error as DocumentError {
      throw APIError(error)
    } catch let error as DrawingStoreError {
      guard case .conflict = error else { throw APIError(error) }
      throw await sayingWhereItWent(name, APIError(error))
    }
  }

  /// `GET /api/drawings/NAME/changes?since=R`: `{"changes": [{"change":
  /// CHANGE, "revision": r}, ...], "revision": N}`, every change after R in
  /// order, N the current revision; 410 when the log no longer holds them
  /// (then the client reads the document).
  @Sendable func changes(_ request: Request, context: BasicRequestContext) async throws -> Response {
    let name = try Self.name(in: context)
    let since = try Self.since(in: request)
    let stored: StoredChanges?
    do {
      stored = try await store.changes(of: name, since: since)
    } catch let error as DrawingStoreError {
      if case .changesGone = error {} else { context.logger.error("\(error)") }
      throw APIError(error)
    }
    guard let stored else { throw APIError.notFound(name) }
    // The stored changes are JSON already: written around, not re-encoded.
    var json = Data("{\"changes\":[".utf8)
    for (index, change) in stored.changes.enumerated() {
      if index > 0 { json.append(UInt8(ascii: ",")) }
      json.append(contentsOf: "{\"change\":".utf8)
      json.append(contentsOf: change.json.utf8)
      json.append(contentsOf: ",\"revision\":\(change.revision)}".utf8)
    }
    json.append(contentsOf: "],\"revision\":\(stored.revision)}".utf8)
    return JSONBody.response(json: json, headers: Self.revisionHeaders(stored.revision), for: request)
  }

  /// `GET /api/drawings/NAME/live` that is not a WebSocket upgrade (those
  /// never reach the router: `LiveUpgrade`): 426, or 403 for another site.
  @Sendable func live(_ request: Request, context: BasicRequestContext) async throws -> Response {
    let name = try Self.name(in: context)
    throw APIError(
      .upgradeRequired, "GET /api/drawings/\(name)/live is a WebSocket: send 'Upgrade: websocket'")
  }

  @Sendable func delete(_ request: Request, context: BasicRequestContext) async throws -> Response {
    let name = try Self.name(in: context)
    let expected = try Self.expectedRevision(in: request)
    do {
      // Deleted, the drawing is at revision 0 (what `hello` then answers).
      let deleted = try await rooms.withRoom(name) { room in
        try await room.replace(revision: { $0 ? 0 : nil }) { try await store.delete(name, ifRevision: expected) }
      }
      guard deleted else { throw APIError.notFound(name) }
      // Its links are revoked with it: a drawing made again under the name
      // gets new ones, and whoever watched it with a link is let go.
      try await store.removeLinks(of: name)
      await rooms.withRoom(name) { $0.dismissLinkHolders("The drawing was deleted") }
      return Response(status: .noContent)
    } catch let error as DrawingStoreError {
      throw APIError(error)
    }
  }

  /// `POST /api/drawings/NAME/rename` with `{"name": "NEW"}`: the drawing
  /// with everything it has (document, log, keys, share links) is called
  /// NEW from now on; answers `{"name", "previousRevision", "revision"}`
  /// (its revisions move up by `revision - previousRevision` only when NEW
  /// had been deleted before). 409 if a drawing is named NEW already
  /// (nothing is overwritten) or `If-Match` is stale. Clients watching NAME
  /// live are sent `renamed`; those watching NEW, `reset`.
  @Sendable func rename(_ request: Request, context: BasicRequestContext) async throws -> Response {
    let name = try Self.name(in: context)
    let expected = try Self.expectedRevision(in: request)
    let newName = try await withBody(of: request, upTo: 4096) { try Self.newName(in: $0.take()) }
    guard newName != name else { throw APIError(DrawingStoreError.nameTaken(name: newName.rawValue)) }
    do {
      let renamed = try await rooms.withRoom(name) { old in
        try await rooms.withRoom(newName) { new in
          // Both gates, always in the order of the names: two renames the
          // other way round cannot wait for each other.
          let rename = { try await store.rename(name, to: newName, ifRevision: expected) }
          let follow: (Renamed?) -> (name: DrawingName, shift: Int)? = {
            $0.map { (newName, $0.revision - $0.previousRevision) }
          }
          if name < newName {
            return try await old.move(to: follow) { try await new.replace(revision: { $0?.revision }, rename) }
          }
          return try await new.replace(revision: { $0?.revision }) { try await old.move(to: follow, rename) }
        }
      }
      guard let renamed else { throw APIError.notFound(name) }
      struct Answer: Encodable {
        var name: String
        var previousRevision: Int
        var revision: Int
      }
      return try JSONBody.response(
        Answer(name: newName.rawValue, previousRevision: renamed.previousRevision, revision: renamed.revision),
        headers: Self.revisionHeaders(renamed.revision))
    } catch let error as DrawingStoreError {
      throw APIError(error)
    }
  }

  /// `GET /api/drawings/NAME/thumbnail[?revision=R]`: a small SVG of the
  /// drawing (`Thumbnail`), with `ETag` its revision. Asked for at its
  /// current revision R, it may be cached for good (the list names the
  /// revision, so a changed drawing is a new address); otherwise it is
  /// revalidated (`If-None-Match` answers 304 from the summary alone).
  @Sendable func thumbnail(_ request: Request, context: BasicRequestContext) async throws -> Response {
    let name = try Self.name(in: context)
    do {
      guard let summary = try await store.summary(of: name) else { throw APIError.notFound(name) }
      var svg: String
      var revision = summary.revision
      if !Thumbnail.draws(summary) {
        svg = Thumbnail.placeholder(for: summary)
      } else if Self.matches(request.headers[.ifNoneMatch], revision) {
        svg = ""
      } else {
        guard let stored = try await store.load(name) else { throw APIError.notFound(name) }
        svg = Thumbnail.svg(of: stored.drawing)
        revision = stored.revision
      }
      var headers = Self.revisionHeaders(revision)
      let pinned = request.uri.queryParameters.get("revision") == String(revision)
      headers[.cacheControl] = pinned ? "private, max-age=31536000, immutable" : "private, no-cache"
      if Self.matches(request.headers[.ifNoneMatch], revision) {
        return Response(status: .notModified, headers: headers)
      }
      headers[.contentType] = "image/svg+xml"
      return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: svg)))
    } catch let error as DrawingStoreError {
      throw APIError(error)
    }
  }

  /// Whether `If-None-Match` names `revision` (`"3"`, `W/"3"`, or `*`).
  private static func matches(_ header: String?, _ revision: Int) -> Bool {
    guard let header else { return false }
    return header.split(separator: ",").contains { tag in
      var tag = tag.trimmingCharacters(in: .whitespaces)
      if tag == "*" { return true }
      if tag.hasPrefix("W/") { tag.removeFirst(2) }
      return tag == "\"\(revision)\""
    }
  }

  // MARK: - Request parts

  /// The new name in a rename's body, `{"name": "NEW"}`.
  private static func newName(in body: Data) throws -> DrawingName {
    struct Body: Decodable { var name: String }
    guard let text = try? JSONDecoder().decode(Body.self, from: body).name else {
      throw APIError(.badRequest, #"A rename needs the new name as the body {"name": "NEW"}"#)
    }
    do {
      return try DrawingName(text)
    } catch {
      throw APIError(error)
    }
  }

  private static func name(in context: BasicRequestContext) throws -> DrawingName {
    let raw = try context.parameters.require("name")
    let text = raw.removingPercentEncoding ?? raw
    do {
      return try DrawingName(text)
    } catch {
      throw APIError(error)
    }
  }

  /// The revision in `If-Match` (`"3"`, also `W/"3"` and `3`: 1 to 18
  /// ASCII digits, no sign), or nil if there is no such header.
  private static func expectedRevision(in request: Request) throws -> Int? {
    guard let value = request.headers[.ifMatch] else { return nil }
    var text = Substring(value.trimmingCharacters(in: .whitespaces))
    if text.hasPrefix("W/") { text = text.dropFirst(2) }
    if text.count >= 2, text.first == "\"", text.last == "\"" { text = text.dropFirst().dropLast() }
    guard let revision = DecimalDigits.value(text) else {
      throw APIError.invalidIfMatch(value)
    }
    return revision
  }

  /// The `Idempotency-Key`, or nil if there is none: 1 to 64 letters,
  /// digits, `_` or `-` (the rule for drawing names).
  private static func idempotencyKey(in request: Request) throws -> String? {
    guard let value = request.headers[.idempotencyKey] else { return nil }
    guard (try? DrawingName(value)) != nil else { throw APIError.invalidIdempotencyKey(value) }
    return value
  }

  /// The revision in the `since` query parameter.
  private static func since(in request: Request) throws -> Int {
    guard let text = request.uri.queryParameters.get("since") else { throw APIError.missingSince }
    guard !text.isEmpty, text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
      let revision = Int(text)
    else { throw APIError.invalidSince(text) }
    return revision
  }

  static func revisionHeaders(_ revision: Int) -> HTTPFields {
    [.eTag: "\"\(revision)\"", .xRevision: String(revision)]
  }
}

// `HTTPField` itself is not re-exported by Hummingbird; `HTTPFields.Element`
// names it without depending on swift-http-types directly.
extension HTTPFields.Element.Name {
  /// The revision as a plain number, for clients that would rather not parse
  /// an `ETag`.
  static let xRevision = Self("X-Revision")!
  /// Names a batch of changes, so that sending it again appends nothing twice.
  static let idempotencyKey = Self("Idempotency-Key")!
  /// The next page of the list (RFC 8288).
  static let link = Self("Link")!
}
