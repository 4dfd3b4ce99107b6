import Foundation
import Hummingbird
import TouchTrackerCore

/// Serves the page: `/` and `/?drawing=NAME` get `index.html`, a folder's
/// path (`/examples/hypnosis/`) its `index.html`, other `GET` and `HEAD`
/// paths the file of that name from `WebAssets`. `/api/` paths
/// are never looked up as files.
///
/// A browser that accepts gzip gets the file gzipped (`Content-Encoding`,
/// `Vary: Accept-Encoding`, an ETag of its own). Every file is revalidated on each use (`no-cache`, cheap with its
/// `ETag`), so a rebuilt `touchtracker.wasm` is never mixed with an old
/// `app.js`; the same file under its hashed name (`app.HASH.js`, the names
/// the served pages use, `HashedNames`) is kept for a year unasked, and a
/// hash that is not the file's is not found. The path is percent-decoded once: `/index.html%00.png` names a
/// file with a NUL in it, which does not exist, not `index.html`.
struct WebAssetsMiddleware<Context: RequestContext>: RouterMiddleware {
  let assets: WebAssets

  func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
    -> Response
  {
    let rawPath = request.uri.path
    guard request.method == .get || request.method == .head, !rawPath.hasPrefix("/api/") else {
      return try await next(request, context)
    }
    guard let decoded = rawPath.removingPercentEncoding, decoded.hasPrefix("/") else {
      throw APIError(.badRequest, "Invalid path '\(rawPath)'")
    }
    let path = String(decoded.dropFirst()) + (decoded.hasSuffix("/") ? "index.html" : "")
    guard let (file, hashed) = assets.lookup(path) else {
      if path == "touchtracker.wasm" && !assets.hasWasm { throw APIError.wasmMissing }
      return try await next(request, context)
    }
    // gzip for a browser that accepts it (every one does): the page's
    // first download is a third of its size.
    let gzipped = request.headers[.acceptEncoding].map(Gzip.isAccepted) == true ? file.gzipped : nil
    let bytes = gzipped ?? file.bytes
    let eTag = gzipped == nil ? file.eTag : file.gzippedETag
    var headers: HTTPFields = [
      .contentType: file.contentType,
      // A hashed name never changes its bytes: kept a year, never asked
      // again. A plain name may change with the next build: asked each time.
      .cacheControl: hashed ? "public, max-age=31536000, immutable" : "no-cache",
      .eTag: eTag,
    ]
    if file.gzipped != nil { headers[.vary] = "Accept-Encoding" }
    if gzipped != nil { headers[.contentEncoding] = "gzip" }
    if let match = request.headers[.ifNoneMatch],
      match.split(separator: ",").contains(where: {
        $0.trimmingCharacters(in: .whitespaces) == eTag
      })
    {
      return Response(status: .notModified, headers: headers)
    }
    headers[.contentLength] = String(bytes.count)
    let body = request.method == .head ? ResponseBody() : ResponseBody(byteBuffer: ByteBuffer(bytes: bytes))
    var response = Response(status: .ok, headers: headers, body: body)
    response.headers[.contentLength] = String(bytes.count)
    return response
  }
}
