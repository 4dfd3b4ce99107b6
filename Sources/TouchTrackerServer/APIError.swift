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

  init(_ status: HTTPResponse.Status, _ message: String, revision: Int? = nil) {
    self.status = status
    self.message = message
    self.revision = revision
  }

  var description: String { "\(status.code) \(message)" }

  func response(from request: Request, context: some RequestContext) throws -> Response {
    try JSONBody.response(Body(error: message, revision: revision), status: status)
  }

  private struct Body: Encodable {
    var error: String
    var revision: Int?
  }
}

extension APIError {
  /// The largest request body: a 100,000-line drawing is about 9 MB.
  static let maximumBodySize = 32 * 1024 * 1024

  static let bodyTooLarge = APIError(.contentTooLarge, "Request body is larger than 32 MiB")

  static func notFound(_ name: DrawingName) -> APIError {
    APIError(.notFound, "No drawing named '\(name)'")
  }

  static func invalidIfMatch(_ value: String) -> APIError {
    APIError(.badRequest, "Invalid If-Match header '\(value)': expected a revision like \"3\"")
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
    case .cannotOpen: self.init(.internalServerError, error.description)
    }
  }
}
