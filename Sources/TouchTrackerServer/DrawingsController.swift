import Foundation
import Hummingbird
import NIOHTTP1
import TouchTrackerCore
import TouchTrackerStore

/// `/api/drawings`: list, read, save and delete documents.
///
/// Revisions travel as HTTP validators: `GET` returns the revision in `ETag`
/// (`"3"`) and `X-Revision` (`3`); `PUT` and `DELETE` take an optional
/// `If-Match: "3"` and answer 409 with the current revision if it is stale.
/// Every request is validated (name, header, size, document) before the
/// store is touched, so a bad request never changes a drawing.
///
/// `HEAD` answers as `GET` without the body; `OPTIONS` says what a path allows.
struct DrawingsController {
  let store: DrawingStore

  func addRoutes(to group: RouterGroup<BasicRequestContext>) {
    group.get(use: list)
    group.head { Self.withoutBody(try await list($0, context: $1)) }
    group.on("", method: .options) { _, _ in Self.allow("GET, HEAD, OPTIONS") }
    group.get(":name", use: load)
    group.head(":name") { Self.withoutBody(try await load($0, context: $1)) }
    group.put(":name", use: save)
    group.delete(":name", use: delete)
    group.on(":name", method: .options) { _, _ in Self.allow("GET, HEAD, PUT, DELETE, OPTIONS") }
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

  /// One entry of the list.
  struct Entry: Encodable {
    var name: String
    var revision: Int
    var updatedAt: Date
    var lineCount: Int
    var circleCount: Int
  }

  @Sendable func list(_ request: Request, context: BasicRequestContext) async throws -> Response {
    let entries = try await store.list().map { summary in
      Entry(
        name: summary.name.rawValue,
        revision: summary.revision,
        updatedAt: summary.updatedAt,
        lineCount: summary.lineCount,
        circleCount: summary.circleCount
      )
    }
    return try JSONBody.response(entries)
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
    guard let document = stored else { throw APIError.notFound(name) }
    return JSONBody.response(json: document.json, headers: Self.revisionHeaders(document.revision))
  }

  @Sendable func save(_ request: Request, context: BasicRequestContext) async throws -> Response {
    let name = try Self.name(in: context)
    let expected = try Self.expectedRevision(in: request)
    let drawing: Drawing
    do {
      drawing = try await DocumentDecoding.decode(try await Self.body(of: request))
    } catch let error as DocumentError {
      throw APIError(error)
    }
    do {
      let revision = try await store.save(drawing, as: name, ifRevision: expected)
      struct Saved: Encodable { var revision: Int }
      return try JSONBody.response(Saved(revision: revision), headers: Self.revisionHeaders(revision))
    } catch let error as DrawingStoreError {
      throw APIError(error)
    }
  }

  @Sendable func delete(_ request: Request, context: BasicRequestContext) async throws -> Response {
    let name = try Self.name(in: context)
    let expected = try Self.expectedRevision(in: request)
    do {
      guard try await store.delete(name, ifRevision: expected) else { throw APIError.notFound(name) }
      return Response(status: .noContent)
    } catch let error as DrawingStoreError {
      throw APIError(error)
    }
  }

  // MARK: - Request parts

  private static func name(in context: BasicRequestContext) throws -> DrawingName {
    let raw = try context.parameters.require("name")
    let text = raw.removingPercentEncoding ?? raw
    do {
      return try DrawingName(text)
    } catch {
      throw APIError(error)
    }
  }

  /// The revision in `If-Match` (`"3"`, also `W/"3"` and `3`), or nil if
  /// there is no such header.
  private static func expectedRevision(in request: Request) throws -> Int? {
    guard let value = request.headers[.ifMatch] else { return nil }
    var text = Substring(value.trimmingCharacters(in: .whitespaces))
    if text.hasPrefix("W/") { text = text.dropFirst(2) }
    if text.count >= 2, text.first == "\"", text.last == "\"" { text = text.dropFirst().dropLast() }
    guard text.allSatisfy(\.isASCII), let revision = Int(text), revision >= 0 else {
      throw APIError.invalidIfMatch(value)
    }
    return revision
  }

  /// The body, refused with 413 past `APIError.maximumBodySize`: at once if
  /// `Content-Length` says so, else as soon as that many bytes arrived.
  private static func body(of request: Request) async throws -> Data {
    if let length = request.headers[.contentLength].flatMap(Int.init), length > APIError.maximumBodySize {
      throw APIError.bodyTooLarge
    }
    do {
      let buffer = try await request.body.collect(upTo: APIError.maximumBodySize)
      return Data(buffer.readableBytesView)
    } catch let error as any HTTPResponseError where error.status == .contentTooLarge {
      throw APIError.bodyTooLarge
    } catch is HTTPParserError {
      // NIO found the framing broken (a chunk size that is not hex, say):
      // the client's fault, and the connection cannot be trusted further.
      throw APIError.malformedBody
    }
  }

  private static func revisionHeaders(_ revision: Int) -> HTTPFields {
    [.eTag: "\"\(revision)\"", .xRevision: String(revision)]
  }
}

// `HTTPField` itself is not re-exported by Hummingbird; `HTTPFields.Element`
// names it without depending on swift-http-types directly.
extension HTTPFields.Element.Name {
  /// The revision as a plain number, for clients that would rather not parse
  /// an `ETag`.
  static let xRevision = Self("X-Revision")!
}
