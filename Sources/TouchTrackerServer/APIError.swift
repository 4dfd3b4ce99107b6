import Foundation
import Hummingbird
import TouchTrackerStore

/// A failed API request as the client sees it: a status and a JSON body
/// `{"error": "message"}`, with `"revision"` added for a conflict so the
/// client knows what it conflicted with.
struct APIError: HTTPResponseError, Sendable, CustomStringConvertible {
  var status: HTTPResponse.Status
  var message: String
  var revision: Int?
  /// Whether the connection closes after this answer: when the rest of the
  /// request cannot or should not be read (a body too large, malformed or
  /// too slow), waiting for it would only hold the client up.
  var closesConnection: Bool
  /// For a 404 or 409 on a name a rename left: where the drawing went, and
  /// how far its revisions moved (`DrawingsController.sayingWhereItWent`).
  var movedTo: DrawingMove?
  /// For a 503: the seconds after which to try again (`Retry-After`).
  var retryAfter: Int?

  init(_ status: HTTPResponse.Status, _ message: String, revision: Int? = nil, closesConnection: Bool = false) {
    self.status = status
    self.message = message
    self.revision = revision
    self.closesConnection = closesConnection
  }

  var description: String { "\(status.code) \(message)" }

  func response(from request: Request, context: some RequestContext) throws -> Response {
    var headers: HTTPFields = closesConnection ? [.connection: "close"] : [:]
    if let retryAfter { headers[.retryAfter] = String(retryAfter) }
    return try JSONBody.response(
      Body(error: message, revision: revision, renamedTo: movedTo?.name.rawValue, shift: movedTo?.shift),
      status: status,
      headers: headers
    )
  }

  private struct Body: Encodable {
    var error: String
    var revision: Int?
    var renamedTo: String?
    var shift: Int?
  }
}

extension APIError {
  /// The largest request body: a 100,000-line drawing is about 9 MB.
  static let maximumBodySize = 32 * 1024 * 1024

  static let bodyTooLarge = APIError(
    .contentTooLarge, "Request body is larger than 32 MiB", closesConnection: true)

  /// The largest document `PUT`: a 1,000,000-line drawing is about 100 MB,
  /// and a drawing the CLI can open from a file (256 MiB) can be stored too.
  /// Documents in the app's shape are decoded straight into lines, so the
  /// server holds the body and the lines (~150 bytes a line), not a JSON tree.
  static let maximumDocumentBodySize = 256 * 1024 * 1024

  static let documentTooLarge = APIError(
    .contentTooLarge, "Request body is larger than 256 MiB", closesConnection: true)

  /// 503: the body does not fit beside the bodies in flight (`BodyBudget`).
  /// The connection closes: the body is not read.
  static func bodyBudgetFull(_ limit: Int) -> APIError {
    var error = APIError(
      .serviceUnavailable,
      "The server is holding as many request bodies as it takes at once (\(mebibytes(limit)), --body-budget):"
        + " send this one again in a moment",
      closesConnection: true)
    error.retryAfter = retryAfterSeconds
    return error
  }

  /// 413: a body larger than the whole `BodyBudget` could never be taken.
  static func overBodyBudget(_ limit: Int) -> APIError {
    APIError(
      .contentTooLarge,
      "Request body is larger than this server's budget for bodies in flight (\(mebibytes(limit)), --body-budget)",
      closesConnection: true)
  }

  /// `bytes` in MiB for messages: "512 MiB", "0.95 MiB".
  static func mebibytes(_ bytes: Int) -> String {
    if bytes % (1024 * 1024) == 0 { return "\(bytes / (1024 * 1024)) MiB" }
    return "\((Double(bytes) / 1_048_576 * 100).rounded() / 100) MiB"
  }

  static let malformedBody = APIError(
    .badRequest, "Malformed request body: the HTTP framing (chunk sizes) is invalid", closesConnection: true)

  static let wasmMissing = APIError(
    .notFound,
    "touchtracker.wasm was not built into this server: run Scripts/build-wasm.sh, then swift build again")

  static func notFound(_ name: DrawingName) -> APIError {
    APIError(.notFound, "No drawing named '\(name)'")
  }

  static func invalidIfMatch(_ value: String) -> APIError {
    APIError(.badRequest, "Invalid If-Match header '\(value)': expected a revision like \"3\"")
  }

  static func invalidIdempotencyKey(_ value: String) -> APIError {
    APIError(
      .badRequest,
      "Invalid Idempotency-Key header '\(value)': use 1 to \(DrawingName.maximumLength) letters, digits, '_' or '-'")
  }

  static let missingSince = APIError(
    .badRequest, "Missing query parameter 'since': the revision the client has, like ?since=3")

  static func invalidSince(_ value: String) -> APIError {
    APIError(.badRequest, "Invalid query parameter since='\(value)': expected a revision like 3")
  }

  static func invalidAfter(_ value: String) -> APIError {
    APIError(
      .badRequest,
      "Invalid query parameter after='\(value.prefix(100))': expected the cursor of the previous page's"
        + " Link rel=\"next\" (like 1764340000123000.sketch)")
  }

  static func invalidLimit(_ value: String) -> APIError {
    APIError(
      .badRequest,
      "Invalid query parameter limit='\(value.prefix(100))': expected a number from 1 to \(DrawingListQuery.maximumLimit)"
    )
  }

  static func invalidSearch(_ value: String) -> APIError {
    APIError(
      .badRequest,
      "Invalid query parameter search='\(value.prefix(100))...': at most \(DrawingName.maximumLength) characters,"
        + " the longest a drawing name is")
  }

  /// How long a client is told to wait before trying again when the
  /// database does not answer: about the database deadline, so a client's
  /// retries do not pile up faster than requests are answered.
  static let retryAfterSeconds = 2

  /// 503 with `Retry-After`: the database is down or does not answer. For
  /// a write the message does not say "nothing stored": one past its
  /// deadline may still commit (the client resends it with its key).
  static func unavailable(_ message: String) -> APIError {
    var error = APIError(.serviceUnavailable, message)
    error.retryAfter = retryAfterSeconds
    return error
  }

  init(_ error: DocumentError) {
    self.init(.badRequest, error.description)
  }

  init(_ error: DrawingNameError) {
    self.init(.badRequest, error.description)
  }

  init(_ error: DrawingStoreError) {
    switch error {
    case .conflict(_, _, let current): self.init(.conflict, error.description, revision: current)
    case .changesGone(_, _, _, let current): self.init(.gone, error.description, revision: current)
    case .cannotOpen, .badURL, .damaged, .unreadable: self.init(.internalServerError, error.description)
    case .unavailable: self = .unavailable(error.description)
    case .nameTaken: self.init(.conflict, error.description)
    }
  }
}
