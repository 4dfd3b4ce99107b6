import Foundation
import Hummingbird

/// JSON response bodies, written the same way everywhere: keys sorted, so
/// responses are stable byte for byte.
enum JSONBody {
  static func response(
    _ value: some Encodable,
    status: HTTPResponse.Status = .ok,
    headers: HTTPFields = [:]
  ) throws -> Response {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    encoder.dateEncodingStrategy = .iso8601
    return response(json: try encoder.encode(value), status: status, headers: headers)
  }

  /// A body that is JSON text already, such as a stored document.
  static func response(json: Data, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> Response {
    var headers = headers
    headers[.contentType] = "application/json; charset=utf-8"
    headers[.cacheControl] = "no-store"
    return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: json)))
  }
}
