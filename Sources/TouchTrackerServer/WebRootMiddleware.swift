import Hummingbird
import Logging

/// Serves the page: `/` and `/?drawing=NAME` get `index.html`, other paths
/// the file of that name in the web root, with its content type
/// (`application/wasm` for the core). Paths with `..` are refused (400) by
/// Hummingbird's `FileMiddleware`, which does the serving; `/api/` paths are
/// never looked up as files.
struct WebRootMiddleware<Context: RequestContext>: RouterMiddleware {
  private let files: FileMiddleware<Context, LocalFileSystem>

  init(webRoot: String, logger: Logger) {
    files = FileMiddleware(
      webRoot,
      // Revalidate every time (cheap with ETag and Last-Modified), so a
      // rebuilt touchtracker.wasm is never mixed with an old app.js.
      cacheControl: CacheControl([(MediaType(type: .any), [.noCache])]),
      searchForIndexHtml: true,
      logger: logger
    )
    .withAdditionalMediaTypes(forFileExtensions: [
      "wasm": MediaType(type: .application, subType: "wasm"),
      "js": MediaType(type: .text, subType: "javascript", parameter: ("charset", "utf-8")),
      "webmanifest": MediaType(type: .application, subType: "manifest+json"),
    ])
  }

  func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
    -> Response
  {
    if request.uri.path.hasPrefix("/api/") { return try await next(request, context) }
    return try await files.handle(request, context: context, next: next)
  }
}
