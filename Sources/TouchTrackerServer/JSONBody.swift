import Foundation
import Hummingbird

/// JSON response bodies, written the same way everywhere: keys sorted, so
/// responses are stable byte for byte.
enum JSONBody {
  static func response(
    _ value: some Encodable,
    status: HTTPResponse.Status = .ok,
    headers: HTTPFields = [:],
    for request: Request? = nil
  ) throws -> Response {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    encoder.dateEncodingStrategy = .iso8601
    return response(json: try encoder.encode(value), status: status, headers: headers, for: request)
  }

  /// A body that is JSON text already, such as a stored document.
  ///
  /// `request`: the response may be gzipped for it. A body of at least
  /// `compressedFrom` bytes goes gzipped (`Content-Encoding`, `Vary:
  /// Accept-Encoding`) to a client that accepts gzip: a drawing's JSON
  /// shrinks to about a third, which is most of the time a phone on a slow
  /// network waits for a large drawing. The `ETag` stays the revision: these
  /// responses are `no-store`, so no cache keeps either form, and clients
  /// send the revision back in `If-Match`.
  static func response(
    json: Data, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:], for request: Request? = nil
  ) -> Response {
    var headers = headers
    headers[.contentType] = "application/json; charset=utf-8"
    headers[.cacheControl] = "no-store"
    var body = json
    if let request, json.count >= compressedFrom {
      headers[.vary] = "Accept-Encoding"
      // Level 1: most of the shrinking for a fraction of level 9's time, paid on every read.
      if request.headers[.acceptEncoding].map(Gzip.isAccepted) == true, let gzipped = Gzip.compress(json, level: 1) {
        headers[.contentEncoding] = "gzip"
        body = gzipped
      }
    }
    return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
  }

  /// The smallest body `response(json:for:)` gzips: below it, gzip's own
  /// header and trailer and the time to make them outweigh what is saved.
  static let compressedFrom = 1024
}
